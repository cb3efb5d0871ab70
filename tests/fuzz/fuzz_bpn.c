/* Fuzz target: the BPN parser (N1).
 *
 * Input: a BPN text on the first line; an optional second line with the
 * ruleset in the text form of ball_rules_from_text() ("zone=2 turns=9",
 * card mode: "cards earn.move=1 atk=Sprint:1:pa+1 ...").
 *
 * Properties:
 *  - ball_position_from_text() never crashes; a refused text returns BALL_E_BPN with a
 *    "BPN: ..." message and leaves the game exactly as it was (BPN, hash,
 *    undo history);
 *  - an accepted text clears the undo history and gives a position that
 *    satisfies the invariants of R3/R4/R9/R11 read through the public API;
 *  - it formats back to the same text, or (only tolerated without
 *    FUZZ_BPN_STRICT=1 in the environment) to a canonical text that parses
 *    to the same position: format(parse(format(parse(x)))) == format(parse(x))
 *    and every public query agrees;
 *  - ball_position_to_text() reports a too small buffer;
 *  - every legal action of the position is consistent (kind, cost, squares,
 *    order, N2 text round trip, release tasks) and applies and undoes
 *    without error, restoring BPN and hash.
 */
#include "fuzz_common.h"

static int strict_canonical(void)
{
    static int strict = -1;
    if (strict < 0) {
        const char *e = getenv("FUZZ_BPN_STRICT");
        strict = e && *e == '1';
    }
    return strict;
}

static int fuzz_one(char *text)
{
    static ball_action acts[BALL_MAX_ACTIONS];
    static fuzz_snap snap_a, snap_b;
    char *rules_line = fuzz_split_line(text);
    ball_rules rules;
    ball_cardset *cards = NULL;
    fuzz_note("input BPN '%.300s', rules '%.300s'", text, rules_line ? rules_line : "");
    int rc = fuzz_parse_rules(rules_line, &rules, &cards);
    if (rc != BALL_OK) { /* a bad rules text */
        FUZZ_CHECK(NULL, rc == BALL_E_RULES);
        return 0;
    }

    ball_game *g = NULL, *scratch = NULL;
    char err[256] = "";
    rc = ball_game_new(&g, &rules, err, sizeof err);
    if (rc != BALL_OK) { /* a ruleset out of range */
        FUZZ_CHECK(NULL, rc == BALL_E_RANGE && g == NULL && err[0] != '\0');
        ball_cardset_free(cards);
        return 0;
    }
    FUZZ_CHECK(g, ball_game_new(&scratch, &rules, NULL, 0) == BALL_OK);
    ball_cardset_free(cards); /* the games have their own copies */

    /* Leave one decision in the history: a refused text must keep it. */
    char start[BALL_BPN_MAX], before[BALL_BPN_MAX], got[BALL_BPN_MAX], again[BALL_BPN_MAX];
    fuzz_bpn(g, start);
    FUZZ_CHECK(g, ball_legal_actions(g, acts, BALL_MAX_ACTIONS) > 0);
    FUZZ_CHECK(g, ball_apply(g, acts[0]) == BALL_OK);
    fuzz_bpn(g, before);
    uint64_t hash_before = ball_hash(g);

    rc = fuzz_position_from_text(g, text);
    if (rc != BALL_OK) {
        FUZZ_CHECK(g, rc == BALL_E_BPN);
        FUZZ_CHECK(g, strncmp(ball_errmsg(g), "BPN: ", 5) == 0 && strlen(ball_errmsg(g)) > 5);
        fuzz_bpn(g, got);
        FUZZ_CHECK(g, strcmp(got, before) == 0);
        FUZZ_CHECK(g, ball_hash(g) == hash_before);
        FUZZ_CHECK(g, ball_history_length(g) == 1);
        FUZZ_CHECK(g, ball_undo(g) == BALL_OK);
        fuzz_bpn(g, got);
        FUZZ_CHECK(g, strcmp(got, start) == 0);
        ball_game_free(scratch);
        ball_game_free(g);
        return 0;
    }
    FUZZ_CHECK(g, ball_errmsg(g)[0] == '\0');
    FUZZ_CHECK(g, ball_history_length(g) == 0);
    FUZZ_CHECK(g, ball_undo(g) == BALL_E_NO_HISTORY);
    fuzz_check_invariants(g, NULL);

    int len = ball_position_to_text(g, got, sizeof got);
    FUZZ_CHECK(g, len > 0 && (size_t)len == strlen(got));
    FUZZ_CHECK(g, ball_position_to_text(g, again, (size_t)len) == BALL_E_BUFFER);
    FUZZ_CHECK(g, ball_position_to_text(g, again, (size_t)len + 1) == len);
    FUZZ_CHECK(g, ball_position_to_text(g, NULL, 0) == BALL_E_ARG);

    if (strcmp(got, text) != 0) {
        /* A text the strict N1 should not accept (each position has exactly
         * one text); tolerated only if it names the canonical position. */
        fuzz_note("accepted non-canonical '%.300s', canonical '%s'", text, got);
        FUZZ_CHECK(g, !strict_canonical());
        FUZZ_CHECK(scratch, ball_position_from_text(scratch, got) == BALL_OK);
        fuzz_snapshot(g, &snap_a);
        fuzz_snapshot(scratch, &snap_b);
        FUZZ_CHECK(g, memcmp(&snap_a, &snap_b, sizeof snap_a) == 0);
    }
    fuzz_check_round_trip(g, scratch);

    int n = fuzz_check_actions(g, acts, 1, 0);
    int count[2] = {0, 0};
    for (int sq = 0; sq < BALL_NUM_SQUARES; sq++)
        for (int level = 0; level < 2; level++) {
            int code = ball_piece(g, sq, level);
            if (code)
                count[fuzz_team(code)]++;
        }
    fuzz_check_children(g, acts, n, 1, count, 1, 0);
    if (n > 0) { /* a few selections: first, middle and last action */
        fuzz_check_select(g, acts[0]);
        fuzz_check_select(g, acts[n / 2]);
        fuzz_check_select(g, acts[n - 1]);
    }
    fuzz_bpn(g, again);
    FUZZ_CHECK(g, strcmp(again, got) == 0);

    ball_game_free(scratch);
    ball_game_free(g);
    return 0;
}

/* The input in a heap block of its exact length plus one (fuzz_text()). */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size, 4 * BALL_BPN_MAX);
    int rc = fuzz_one(text);
    free(text);
    return rc;
}
