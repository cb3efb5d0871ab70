/* SPDX-License-Identifier: MIT */
/* ball show: the board diagram and the game state. */
#include "tool.h"

/* The board of ball_position_to_board_text(), the library's diagram that
 * the examples and the bindings print too; the tool owns its printing. */
static int print_board(ball_game *g)
{
    char text[4096]; /* the board is about 1,600 bytes */
    int rc = ball_position_to_board_text(g, NULL, 0, 0, text, sizeof text);
    if (rc < 0)
        return fail(g, "board", rc);
    fputs(text, stdout);
    fputs("X O S = ATK, x o s = DEF; * ball, _ knocked down, ! restricted,\n"
          "@ loose ball, two letters = stack (upper, lower), + fresh stack\n", stdout);
    return 0;
}

static const char *team_name(int team)
{
    return team == BALL_ATK ? "ATK" : "DEF";
}

/* Card mode (R10): PE and the cards still in each hand. */
static void show_cards(const ball_game *g, const ball_cardset *cards)
{
    for (int team = BALL_ATK; team <= BALL_DEF; team++) {
        int hand = ball_hand(g, team), size = ball_cardset_hand_size(cards, team), shown = 0;
        printf("%s: %d PE; cards:", team_name(team), ball_pe(g, team));
        for (int k = 0; k < size && k < BALL_MAX_HAND; k++) {
            const char *name = ball_cardset_card_name(cards, team, k);
            if (hand < 0 || !(hand >> k & 1))
                continue;
            printf(" card%d %s (%d PE, ", k + 1, name ? name : "?",
                   ball_cardset_card_value(cards, team, k, BALL_CARD_COST));
            if (ball_cardset_card_value(cards, team, k, BALL_CARD_EFFECT) == BALL_EFFECT_GAIN_PA)
                printf("+%d PA)", ball_cardset_card_value(cards, team, k, BALL_CARD_AMOUNT));
            else
                printf("a restricted piece acts again)");
            shown++;
        }
        printf(shown ? "\n" : " none\n");
    }
}

int cmd_show(ball_game *g, const struct settings *set, int argc, char **argv)
{
    ball_rules rules;
    char bpn[BALL_BPN_MAX], name[BALL_SQUARE_TEXT_MAX];
    int rc;
    (void)set;
    if ((rc = optional_bpn(g, "show", argc, argv)) != 0)
        return rc;
    if ((rc = ball_position_to_text(g, bpn, sizeof bpn)) < 0)
        return fail(g, "BPN", rc);
    ball_rules_init(&rules, sizeof rules);
    if ((rc = ball_game_rules(g, &rules)) < 0)
        return fail(g, "rules", rc);

    if ((rc = print_board(g)) != 0)
        return rc;

    int result = ball_result(g);
    int ball_sq = ball_square_of_ball(g);
    int have_ball = ball_sq >= 0 && ball_sq < BALL_NUM_SQUARES &&
                    ball_square_to_text(ball_sq, name, sizeof name) > 0;
    if (result == BALL_ONGOING) {
        printf("%s to act, %s phase, PA %d%s, turn %d", team_name(ball_side(g)),
               ball_phase(g) == BALL_PHASE_RELEASE ? "release" : "action", ball_pa(g),
               ball_handoff_last(g) == 1 ? " (after a hand-off)" : "", ball_turn(g));
        if (rules.turn_limit > 0)
            printf(" of %u", rules.turn_limit);
    } else if (result == BALL_DRAW) {
        printf("game over, turn limit %u reached", rules.turn_limit);
    } else {
        printf("game over by a touchdown at turn %d", ball_turn(g));
    }
    printf("; result: %s\n",
           result == BALL_ATK_WON ? "ATK won" :
           result == BALL_DEF_WON ? "DEF won" :
           result == BALL_DRAW ? "draw" : "ongoing");
    if (have_ball) {
        int st = ball_square_state(g, ball_sq);
        printf("ball: %s on %s\n", st >= 0 && (st & BALL_SQ_LOOSE_BALL) ? "loose" : "held", name);
    }
    if (rules.cards)
        show_cards(g, rules.cards);
    printf("BPN: %s\n", bpn);
    return 0;
}
