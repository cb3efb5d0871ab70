/* Fuzz target: the action-text parser (N2) against positions.
 *
 * Input: lines. When the first line is a valid BPN (under the default
 * ruleset, or else under the card ruleset FUZZ_CARD_RULES) the game starts
 * there and the other lines are action texts; otherwise the game starts at
 * the standard start and every line is an action text. Each accepted action
 * is played, so later lines are read in the position the earlier ones
 * made (a finished game is taken back one decision first).
 *
 * Properties, for every line:
 *  - ball_action_from_text() never crashes and returns BALL_OK,
 *    BALL_E_NOTATION or BALL_E_ILLEGAL (with a message); a refused text
 *    changes nothing and is the text of no legal action;
 *  - an accepted text names a legal action whose N2 text is exactly the
 *    line, whose selection steps (R12) lead to it, and which plays without
 *    error into a position that keeps the invariants and round-trips
 *    through BPN;
 *  - ball_square_from_text() on the line agrees with ball_square_to_text().
 * At the end every decision is taken back down to the first position.
 */
#include "fuzz_common.h"

#define MAX_LINES 64

static void check_square_name(const char *line)
{
    char *copy = fuzz_exact(line);
    int sq = ball_square_from_text(copy);
    free(copy);
    FUZZ_CHECK(NULL, sq >= 0 || sq == BALL_E_NOTATION);
    if (sq >= 0) {
        char name[4];
        FUZZ_CHECK(NULL, sq < BALL_NUM_SQUARES);
        FUZZ_CHECK(NULL, ball_square_to_text(sq, name, sizeof name) == (int)strlen(line));
        FUZZ_CHECK(NULL, strcmp(name, line) == 0);
        FUZZ_CHECK(NULL, ball_square_at(ball_square_col(sq), ball_square_row(sq)) == sq);
    }
}

static int fuzz_one(char *text)
{
    static ball_action acts[BALL_MAX_ACTIONS];

    /* The first line is tried as a BPN under the default ruleset, then
     * under the card ruleset (whose BPN has an eighth field). */
    ball_game *g = NULL, *scratch = NULL;
    char *line = text, *rest = fuzz_split_line(text);
    for (int card = 0; card <= 1 && !scratch; card++) {
        ball_rules rules;
        ball_cardset *cards = NULL;
        FUZZ_CHECK(NULL, fuzz_parse_rules(card ? FUZZ_CARD_RULES : NULL, &rules, &cards) == BALL_OK);
        FUZZ_CHECK(NULL, ball_game_new(&g, &rules, NULL, 0) == BALL_OK);
        if (fuzz_position_from_text(g, line) == BALL_OK) {
            FUZZ_CHECK(NULL, ball_game_new(&scratch, &rules, NULL, 0) == BALL_OK);
            line = rest;
            rest = line ? fuzz_split_line(line) : NULL;
        } else {
            ball_game_free(g);
            g = NULL;
        }
        ball_cardset_free(cards);
    }
    if (!scratch) { /* no BPN: the standard start, default rules */
        FUZZ_CHECK(NULL, ball_game_new(&g, NULL, NULL, 0) == BALL_OK);
        FUZZ_CHECK(NULL, ball_game_new(&scratch, NULL, NULL, 0) == BALL_OK);
    }
    char start[BALL_BPN_MAX], before[BALL_BPN_MAX], after[BALL_BPN_MAX];
    fuzz_bpn(g, start);
    int count[2] = {0, 0};
    for (int sq = 0; sq < BALL_NUM_SQUARES; sq++)
        for (int level = 0; level < 2; level++) {
            int code = ball_piece(g, sq, level);
            if (code)
                count[fuzz_team(code)]++;
        }

    for (int nline = 0; line && nline < MAX_LINES; nline++) {
        check_square_name(line);
        if (ball_result(g) != BALL_ONGOING && ball_history_length(g) > 0)
            FUZZ_CHECK(g, ball_undo(g) == BALL_OK);
        fuzz_bpn(g, before);
        uint64_t hash = ball_hash(g);
        int hist = ball_history_length(g);
        fuzz_note("line %d '%.100s' in %s", nline + 1, line, before);

        ball_action a = BALL_ACTION_NONE;
        char *copy = fuzz_exact(line); /* ends where its block ends */
        int rc = ball_action_from_text(g, copy, &a);
        free(copy);
        if (rc == BALL_OK) {
            char back[BALL_ACTION_TEXT_MAX];
            FUZZ_CHECK(g, ball_errmsg(g)[0] == '\0');
            FUZZ_CHECK(g, ball_is_legal(g, a) == 1);
            FUZZ_CHECK(g, ball_action_to_text(a, back, sizeof back) == (int)strlen(line));
            FUZZ_CHECK(g, strcmp(back, line) == 0);
            fuzz_check_select(g, a);
            if (!fuzz_apply(g, a, 1)) { /* refused at BALL_MAX_TURN: nothing changed */
                fuzz_bpn(g, after);
                FUZZ_CHECK(g, strcmp(after, before) == 0);
                line = rest;
                rest = line ? fuzz_split_line(line) : NULL;
                continue;
            }
            fuzz_check_invariants(g, count);
            fuzz_check_round_trip(g, scratch);
            /* undo and replay: the same two positions */
            FUZZ_CHECK(g, ball_undo(g) == BALL_OK);
            fuzz_bpn(g, after);
            FUZZ_CHECK(g, strcmp(after, before) == 0 && ball_hash(g) == hash);
            FUZZ_CHECK(g, ball_apply(g, a) == BALL_OK);
        } else {
            FUZZ_CHECK(g, rc == BALL_E_NOTATION || rc == BALL_E_ILLEGAL);
            FUZZ_CHECK(g, ball_errmsg(g)[0] != '\0');
            fuzz_bpn(g, after);
            FUZZ_CHECK(g, strcmp(after, before) == 0 && ball_hash(g) == hash);
            FUZZ_CHECK(g, ball_history_length(g) == hist);
            /* no legal action has this text */
            int n = ball_legal_actions(g, acts, BALL_MAX_ACTIONS);
            FUZZ_CHECK(g, n >= 0);
            for (int i = 0; i < n; i++) {
                char t[BALL_ACTION_TEXT_MAX];
                FUZZ_CHECK(g, ball_action_to_text(acts[i], t, sizeof t) > 0);
                FUZZ_CHECK(g, strcmp(t, line) != 0);
            }
        }
        line = rest;
        rest = line ? fuzz_split_line(line) : NULL;
    }

    /* NULL arguments are refused, not dereferenced. */
    ball_action dummy;
    FUZZ_CHECK(g, ball_action_from_text(g, NULL, &dummy) == BALL_E_ARG);
    FUZZ_CHECK(g, ball_action_from_text(g, "end", NULL) == BALL_E_ARG);
    FUZZ_CHECK(g, ball_action_from_text(NULL, "end", &dummy) == BALL_E_ARG);

    while (ball_history_length(g) > 0)
        FUZZ_CHECK(g, ball_undo(g) == BALL_OK);
    fuzz_bpn(g, after);
    FUZZ_CHECK(g, strcmp(after, start) == 0);
    ball_game_free(scratch);
    ball_game_free(g);
    return 0;
}

/* The input in a heap block of its exact length plus one (fuzz_text()). */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size, 8192);
    int rc = fuzz_one(text);
    free(text);
    return rc;
}
