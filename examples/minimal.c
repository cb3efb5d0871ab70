/* SPDX-License-Identifier: MIT */
/* minimal — the shortest complete use of libball: create a game, list the
 * legal actions, apply one given as text, print the position, undo, free.
 * Every call that can fail is checked. */
#include <ball.h>
#include <stdio.h>

int main(void)
{
    ball_game *game = NULL;
    ball_action actions[BALL_MAX_ACTIONS], action;
    char text[BALL_ACTION_TEXT_MAX], bpn[BALL_BPN_MAX], err[256];
    int n, rc;

    /* standard start, default rules; err receives the reason of a failure */
    rc = ball_game_new(&game, NULL, err, sizeof err);
    if (rc != BALL_OK) {
        fprintf(stderr, "ball_game_new: %s\n", *err ? err : ball_strerror(rc));
        return 1;
    }

    n = ball_legal_actions(game, actions, BALL_MAX_ACTIONS);
    if (n < 0)
        goto fail;
    printf("%d legal actions:", n);
    for (int i = 0; i < n; i++) {
        if (ball_action_to_text(actions[i], text, sizeof text) < 0)
            goto fail;
        printf(" %s", text);
    }
    printf("\n");

    /* DEF's X on E11 steps diagonally to F10. */
    if (ball_action_from_text(game, "E11-F10", &action) != BALL_OK ||
        ball_apply(game, action) != BALL_OK ||
        ball_position_to_text(game, bpn, sizeof bpn) < 0)
        goto fail;
    printf("after E11-F10: %s\n", bpn);

    if (ball_undo(game) != BALL_OK || ball_position_to_text(game, bpn, sizeof bpn) < 0)
        goto fail;
    printf("after undo:    %s\n", bpn);

    ball_game_free(game);
    return 0;

fail:
    fprintf(stderr, "libball: %s\n", ball_errmsg(game));
    ball_game_free(game);
    return 1;
}
