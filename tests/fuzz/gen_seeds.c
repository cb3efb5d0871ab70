/* Writes the seed corpora of the fuzz targets (tests/fuzz/corpus/) from
 * seeded random games, through the public API only:
 *
 *   make fuzz-seeds        (runs: build/fuzz-seeds/gen_seeds tests/fuzz/corpus)
 *
 * Positions are picked for their features, a few of each: stacks (fresh,
 * with the ball, with a knocked-down lower piece, several), knocked-down
 * pieces, the loose ball, the release phase (with a keeper to choose),
 * restricted carriers, a hand-off just made, 0 PA left, dodges with forced
 * fumble and tactical dodges with fumble available, finished games (both
 * touchdowns, and draws under a turn limit). Each becomes
 * Games are played under the default rules, with a turn limit, and in card
 * mode (FUZZ_CARD_RULES of fuzz_common.h: conversions, card plays, PE).
 *  - bpn/NAME:          the BPN (and a rules line when the game had one);
 *  - action_text/NAME:  the BPN, then the texts of a few legal decisions
 *                       played in turn, plus a few that are not legal;
 *  - actions/NAME:      the BPN, a rules byte, then random choice bytes;
 *  - diff/NAME:         the BPN, fuzz_diff's rules bytes, random choices.
 * rules/ gets hand-made ruleset texts (RULES_SEEDS); net/ gets format-2
 * headers for fuzz_net's odd mode (NET2_SEEDS, net2_seeds()).
 * The same seeds always give the same files. */
#define _POSIX_C_SOURCE 200809L

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"

enum {
    F_STACK, F_FRESH, F_STACK_BALL, F_LOWER_DOWN, F_STACKS3, F_DOWN, F_LOOSE, F_RELEASE,
    F_KEEPER, F_RESTRICTED, F_HANDOFF, F_PA0, F_FORCED_FUMBLE, F_FUMBLE, F_ATK_WON,
    F_DEF_WON, F_DRAW, F_CONVERT, F_PLAY_CARD, F_NFEATURES
};
static const char *const NAMES[F_NFEATURES] = {
    "stack", "fresh-stack", "stack-ball", "lower-down", "three-stacks", "down", "loose-ball",
    "release", "keeper", "restricted", "handoff", "pa0", "forced-fumble", "fumble", "atk-won",
    "def-won", "draw", "convert", "play-card",
};
#define PER_FEATURE 3

static uint64_t rng = 0x2545F4914F6CDD1Dull;
static unsigned next(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (unsigned)(rng >> 11);
}

/* A second generator for the files added later (diff/), so that the
 * older corpora stay the same. */
static uint64_t rng2 = 0x9E3779B97F4A7C15ull;
static unsigned next2(void)
{
    rng2 ^= rng2 << 13;
    rng2 ^= rng2 >> 7;
    rng2 ^= rng2 << 17;
    return (unsigned)(rng2 >> 11);
}

static int features(ball_game *g, unsigned long *bits)
{
    ball_action acts[BALL_MAX_ACTIONS];
    int n = ball_legal_actions(g, acts, BALL_MAX_ACTIONS), stacks = 0;
    unsigned long f = 0;
    for (int sq = 0; sq < BALL_NUM_SQUARES; sq++) {
        int st = ball_square_state(g, sq), up = ball_piece(g, sq, BALL_UPPER);
        int low = ball_piece(g, sq, BALL_LOWER);
        if (st & BALL_SQ_STACK) {
            stacks++;
            f |= 1ul << F_STACK;
            if (st & BALL_SQ_BALL) f |= 1ul << F_STACK_BALL;
            if (low & BALL_PIECE_DOWN) f |= 1ul << F_LOWER_DOWN;
        }
        if (st & BALL_SQ_FRESH) f |= 1ul << F_FRESH;
        if ((up | low) & BALL_PIECE_DOWN) f |= 1ul << F_DOWN;
        if (st & BALL_SQ_LOOSE_BALL) f |= 1ul << F_LOOSE;
    }
    if (stacks >= 3) f |= 1ul << F_STACKS3;
    if (ball_phase(g) == BALL_PHASE_RELEASE) f |= 1ul << F_RELEASE;
    if (ball_restricted_square(g) != BALL_NO_SQUARE) f |= 1ul << F_RESTRICTED;
    if (ball_handoff_last(g)) f |= 1ul << F_HANDOFF;
    if (ball_phase(g) == BALL_PHASE_ACTION && ball_pa(g) == 0) f |= 1ul << F_PA0;
    if (ball_result(g) == BALL_ATK_WON) f |= 1ul << F_ATK_WON;
    if (ball_result(g) == BALL_DEF_WON) f |= 1ul << F_DEF_WON;
    if (ball_result(g) == BALL_DRAW) f |= 1ul << F_DRAW;
    for (int i = 0; i < n; i++) {
        if (ball_action_keeper(acts[i]) == BALL_KEEPER_LOWER) f |= 1ul << F_KEEPER;
        if (ball_action_flags(acts[i]) & BALL_FLAG_FORCED_FUMBLE) f |= 1ul << F_FORCED_FUMBLE;
        if (ball_action_flags(acts[i]) & BALL_FLAG_FUMBLE) f |= 1ul << F_FUMBLE;
        if (ball_action_kind(acts[i]) == BALL_CONVERT_PA) f |= 1ul << F_CONVERT;
        if (ball_action_kind(acts[i]) == BALL_PLAY_CARD) f |= 1ul << F_PLAY_CARD;
    }
    *bits = f;
    return n;
}

static void write_file(const char *dir, const char *sub, const char *name, const void *data, size_t len)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s/%s", dir, sub, name);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(data, 1, len, f) != len || fclose(f) != 0) {
        perror(path);
        exit(1);
    }
}

/* FUZZ_CARD_RULES as fuzz_diff reads a card set from bytes (see
 * read_cardset() there): 13 earning entries, the ATK hand (3 cards: cost,
 * effect byte), the DEF hand (2 cards). The names differ, which BPN does
 * not see. */
static const unsigned char DIFF_CARD_BYTES[] = {
    1, 2, 1, 3, 1, 1, 1, 1, 1, 2, 1, 1, 1, /* earn.move ... earn.unprotect */
    3, 1, 0, 2, 1, 3, 2,                   /* Sprint:1:pa+1, Again:2:again, Dash:3:pa+2 */
    2, 1, 0, 1, 1,                         /* Sprint:1:pa+1, Again:1:again */
};

/* The seed files of one position, in a game of the given rules
 * text (bpn/ gets it as its second line) and rules byte (actions/). */
static void emit(const char *dir, ball_game *g, const char *name, const char *rules_text, int rules_byte)
{
    char bpn[BALL_BPN_MAX], buf[8192];
    ball_action acts[BALL_MAX_ACTIONS];
    ball_position_to_text(g, bpn, sizeof bpn);
    int len = *rules_text ? snprintf(buf, sizeof buf, "%s\n%s", bpn, rules_text)
                          : snprintf(buf, sizeof buf, "%s", bpn);
    write_file(dir, "bpn", name, buf, (size_t)len);

    /* action_text: a few decisions played in turn from the position, then
     * an illegal one and a malformed one */
    ball_game *c = NULL;
    if (ball_game_clone(&c, g) != BALL_OK)
        exit(1);
    len = snprintf(buf, sizeof buf, "%s\n", bpn);
    for (int k = 0; k < 4; k++) {
        int n = ball_legal_actions(c, acts, BALL_MAX_ACTIONS);
        if (n <= 0)
            break;
        char text[BALL_ACTION_TEXT_MAX];
        ball_action a = acts[next() % (unsigned)n];
        ball_action_to_text(a, text, sizeof text);
        len += snprintf(buf + len, sizeof buf - (size_t)len, "%s\n", text);
        ball_apply(c, a);
    }
    len += snprintf(buf + len, sizeof buf - (size_t)len, "A1-A1\nG5^^\nend");
    ball_game_free(c);
    write_file(dir, "action_text", name, buf, (size_t)len);

    /* actions: the BPN, the rules byte, random choices with a take-back
     * and a failing reserve */
    len = snprintf(buf, sizeof buf, "%s\n", bpn);
    buf[len++] = (char)rules_byte;
    for (int k = 0; k < 40; k++)
        buf[len++] = (char)(k == 20 ? 0xFF : k == 30 ? 0xFE : (int)(next() % 254));
    write_file(dir, "actions", name, buf, (size_t)len);

    /* diff: the BPN, fuzz_diff's rules byte (card mode: the card set of
     * FUZZ_CARD_RULES in its byte form), random choices with a take-back */
    len = snprintf(buf, sizeof buf, "%s\n", bpn);
    if (rules_byte & 0x80) {
        buf[len++] = (char)0x80;
        memcpy(buf + len, DIFF_CARD_BYTES, sizeof DIFF_CARD_BYTES);
        len += (int)sizeof DIFF_CARD_BYTES;
    } else {
        buf[len++] = (char)(rules_byte ? 0x04 : 0x00); /* a limit one turn on */
    }
    for (int k = 0; k < 24; k++)
        buf[len++] = (char)(k == 12 ? 0xFF : (int)(next2() % 254));
    write_file(dir, "diff", name, buf, (size_t)len);
}

/* Hand-made texts: each error class of N1 and N2 once, the rules line. */
static const char *const BPN_SEEDS[][2] = {
    {"start", BALL_START_BPN},
    {"start-zone3", BALL_START_BPN "\nzone=3 turns=2"},
    {"err-two-balls", "7/6/3s*3/6/3x3/6/1oxsxo1/6/7/6/1OXSXO1/6/3X*3/6/3S3/6/7 DEF a 2 - 0/0 1"},
    {"err-no-ball", "7/6/3s3/6/3x3/6/1oxsxo1/6/7/6/1OXSXO1/6/3X3/6/3S3/6/7 DEF a 2 - 0/0 1"},
    {"err-down-carrier", "7/6/3s3/6/3x3/6/1oxsxo1/6/7/6/1OXSXO1/6/3X*_3/6/3S3/6/7 DEF a 2 - 0/0 1"},
    {"err-marks-order", "7/6/3s3/6/3x3/6/1oxsxo1/6/7/6/1OXSXO1/6/3X_*3/6/3S3/6/7 DEF a 2 - 0/0 1"},
    {"err-lower-carrier", "7/6/3s3/6/3x3/6/1oxsxo1/6/7/6/1OXSXO1/6/3[xX*]3/6/3S3/6/7 DEF a 2 - 0/0 1"},
    {"err-touching-digits", "34/6/3s3/6/3x3/6/1oxsxo1/6/7/6/1OXSXO1/6/3X*3/6/3S3/6/7 DEF a 2 - 0/0 1"},
    {"err-long-group", "8/6/3s3/6/3x3/6/1oxsxo1/6/7/6/1OXSXO1/6/3X*3/6/3S3/6/7 DEF a 2 - 0/0 1"},
    {"err-16-groups", "6/3s3/6/3x3/6/1oxsxo1/6/7/6/1OXSXO1/6/3X*3/6/3S3/6/7 DEF a 2 - 0/0 1"},
    {"err-release-pa", "7/6/3s3/6/3x3/6/1oxsxo1/6/7/6/1OXSXO1/6/3X*3/6/3S3/6/7 DEF r 1 - 0/0 1"},
    {"err-release-handoff", "7/6/3s3/6/3x3/6/1oxsxo1/6/7/6/1OXSXO1/6/3X*3/6/3S3/6/7 DEF r 0 h 0/0 1"},
    {"err-release-no-task", "7/6/3s3/6/3x3/6/1oxsxo1/6/7/6/1OXSXO1/6/3X*3/6/3S3/6/7 DEF r 0 - 0/0 1"},
    {"err-restricted-other-side", "7/6/3s3/6/3x3/6/1oxsxo1/6/7/6/1OXSXO1/6/3X*!3/6/3S3/6/7 DEF a 2 - 0/0 1"},
    {"err-restricted-no-ball", "7/6/3s3/6/3x3/6/1oxsxo1/6/7/6/1OXSXO1/6/3X*3/6/3S!3/6/7 ATK a 2 - 0/0 1"},
    {"err-fresh-other-side", "7/6/3s3/6/3x3/6/1oxsxo1/6/7/6/1O[XS]+1XO1/6/3X*3/6/3S3/6/7 DEF a 2 - 0/0 1"},
    {"err-turn-zero", "7/6/3s3/6/3x3/6/1oxsxo1/6/7/6/1OXSXO1/6/3X*3/6/3S3/6/7 DEF a 2 - 0/0 0"},
    {"err-turn-leading-zero", "7/6/3s3/6/3x3/6/1oxsxo1/6/7/6/1OXSXO1/6/3X*3/6/3S3/6/7 DEF a 2 - 0/0 01"},
    {"err-pe", "7/6/3s3/6/3x3/6/1oxsxo1/6/7/6/1OXSXO1/6/3X*3/6/3S3/6/7 DEF a 2 - 1/0 1"},
    {"err-fields", "7/6/3s3/6/3x3/6/1oxsxo1/6/7/6/1OXSXO1/6/3X*3/6/3S3/6/7 DEF a 2 -  0/0 1"},
    {"err-eight-pieces", "7/6/3s3/6/3x3/6/1oxsxo1/6/7/6/1OXSXO1/6/3X*3/6/3S3/6/X6 DEF a 2 - 0/0 1"},
    {"err-stack-close", "7/6/3s3/6/3x3/6/1oxsxo1/6/7/6/1OXSXO1/6/3[X*x3/6/3S3/6/7 DEF a 2 - 0/0 1"},
};

/* Rules texts (fuzz_rules): each word, the examples of ball.h and
 * docs/cards.md, and each error class once. */
static const char *const RULES_SEEDS[][2] = {
    {"empty", ""},
    {"zone", "zone=3"},
    {"turns", "zone=2 turns=9"},
    {"turns-max", "turns=999999998"},
    {"cards-only", "cards"},
    {"earn-only", "earn.unprotect=999"},
    {"header-example", "zone=2 earn.dodge=1 earn.fumble=2 atk=Sprint:2:pa+1,Rally:3:again def=Sprint:2:pa+1"},
    {"fuzz-card-rules", FUZZ_CARD_RULES},
    {"full-hands", "atk=A:0:pa+1,B:1:pa+2,C:2:pa+3,D:3:pa+4,E:4:pa+5,F:5:pa+6,G:6:pa+7,H:7:pa+8,I:999:pa+9 "
                   "def=a_long_card_name-0123:0:again,b:0:again,c:0:again,d:0:again,e:0:again,f:0:again,"
                   "g:0:again,h:0:again,i:0:again"},
    {"spaces", "  zone=1   cards  "},
    {"err-zone", "zone=4"},
    {"err-turns", "turns=999999999"},
    {"err-leading-zero", "turns=09"},
    {"err-word", "zones=2"},
    {"err-earn", "earn.walk=1"},
    {"err-earn-range", "earn.move=1000"},
    {"err-hand-twice", "atk=A:1:pa+1 atk=B:1:pa+1"},
    {"err-hand-full", "atk=A:0:pa+1,B:0:pa+1,C:0:pa+1,D:0:pa+1,E:0:pa+1,F:0:pa+1,G:0:pa+1,H:0:pa+1,I:0:pa+1,J:0:pa+1"},
    {"err-card-name", "atk=Sp.rint:1:pa+1"},
    {"err-card-name-long", "atk=abcdefghijklmnopqrstuvwx:1:pa+1"},
    {"err-card-effect", "def=Sprint:1:pa+10"},
    {"err-card-again", "def=Again:1:again+1"},
    {"err-trailing-comma", "atk=Sprint:1:pa+1,"},
    {"err-empty-hand", "atk="},
    {"err-tab", "zone=2\tturns=3"},
};

static const char *const TEXT_SEEDS[][2] = {
    {"texts-start", "E11-F10\nG13-F12\nend\nG5-F6\nF6=E7\nend"},
    {"texts-malformed", "\nG5\nG5-\nG5-F6/\nG5-F6/E7=\nZ9-A1\nA18-A1\nG5^^^F6\npe+0\npe+1\ncard\nend "},
    {"texts-passes", "7/6/3s3/6/3x3/6/1oxsxo1/6/7/6/1OXSXO1/6/3X*3/6/3S3/6/7 ATK a 2 - 0/0 2\nG5^F8\nG5^^G15\nG5=G7\nG5^^A17"},
};

/* Format-2 network seeds for fuzz_net's odd mode (docs/network-format.md):
 * a mode byte, the 40-byte header, then weight bytes that the target
 * repeats to the header's length and seals with the CRC-32. Valid small
 * nets in both bases, extreme weights (int16 sums that wrap, int32 biases
 * at the ends of their range), and near-valid headers refused field by
 * field, plus a stray byte (mode 3) and, as files (mode 0), a bare header
 * and one a few bytes longer (both refused as truncated). The first four
 * weight bytes also choose fuzz_net's rules (end zones, turn limit). */
static const struct net2_seed {
    const char *name;
    unsigned mode, arch, set, features, h, h2, base, reserved;
    const char *weights; /* repeated; "" for zeros */
    size_t nweights;
} NET2_SEEDS[] = {
    {"fmt2-h64-base0", 1, 2, 1, 4783, 64, 1, 0, 0, "\x03\x00\xfe\xff\x07\x01\x11", 7},
    {"fmt2-h64-base1", 1, 2, 1, 4783, 64, 1, 1, 0, "\x03\x00\xfe\xff\x07\x01\x11", 7},
    {"fmt2-h64-h2-3-zeros", 1, 2, 1, 4783, 64, 3, 0, 0, "", 0},
    {"fmt2-h128-h2-16-max", 1, 2, 1, 4783, 128, 16, 0, 0, "\xff\x7f", 2},
    {"fmt2-h192-h2-5-min", 1, 2, 1, 4783, 192, 5, 1, 0, "\x00\x80", 2},
    {"fmt2-h256-h2-64-mixed", 1, 2, 1, 4783, 256, 64, 1, 0, "\xff\x7f\x00\x80\x40", 5},
    {"fmt2-stray-byte", 3, 2, 1, 4783, 64, 1, 0, 0, "\x01\x02", 2},
    {"fmt2-header-alone", 0, 2, 1, 4783, 64, 1, 0, 0, "", 0},
    {"fmt2-short", 0, 2, 1, 4783, 64, 1, 0, 0, "\x01\x02\x03\x04\x05\x06\x07\x08", 8},
    {"fmt2-bad-arch", 1, 1, 1, 4783, 64, 1, 0, 0, "\x01", 1},
    {"fmt2-bad-set", 1, 2, 3, 4783, 64, 1, 0, 0, "\x01", 1},
    /* feature set 2 (set 1 plus the pieces near the ball): valid nets,
     * and each set with the other's feature count */
    {"fmt2-set2-h64-base0", 1, 2, 2, 7429, 64, 1, 0, 0, "\x03\x00\xfe\xff\x07\x01\x11", 7},
    {"fmt2-set2-h64-base1", 1, 2, 2, 7429, 64, 4, 1, 0, "\x13\x05\xfe\xfc\x07\x21\x11\x00\x09", 9},
    {"fmt2-set2-h128-h2-16-max", 1, 2, 2, 7429, 128, 16, 0, 0, "\xff\x7f", 2},
    {"fmt2-set2-h192-h2-7-mixed", 1, 2, 2, 7429, 192, 7, 1, 0, "\xff\x7f\x00\x80\x40", 5},
    {"fmt2-set2-features-4783", 1, 2, 2, 4783, 64, 1, 0, 0, "\x01", 1},
    {"fmt2-set1-features-7429", 1, 2, 1, 7429, 64, 1, 0, 0, "\x01", 1},
    {"fmt2-bad-features", 1, 2, 1, 4782, 64, 1, 0, 0, "\x01", 1},
    {"fmt2-h96", 1, 2, 1, 4783, 96, 1, 0, 0, "\x01", 1},
    {"fmt2-h2-0", 1, 2, 1, 4783, 64, 0, 0, 0, "\x01", 1},
    {"fmt2-h2-65", 1, 2, 1, 4783, 64, 65, 0, 0, "\x01", 1},
    {"fmt2-base2", 1, 2, 1, 4783, 64, 1, 2, 0, "\x01", 1},
    {"fmt2-reserved", 1, 2, 1, 4783, 64, 1, 0, 1, "\x01", 1},
};

static void put32(unsigned char *p, unsigned v)
{
    for (int b = 0; b < 4; b++)
        p[b] = (unsigned char)(v >> (8 * b));
}

static void net2_seeds(const char *dir)
{
    for (size_t i = 0; i < sizeof NET2_SEEDS / sizeof *NET2_SEEDS; i++) {
        const struct net2_seed *n = &NET2_SEEDS[i];
        unsigned char buf[1 + 40 + 16];
        buf[0] = (unsigned char)n->mode;
        memcpy(buf + 1, "BALLNET", 8);
        put32(buf + 9, 2);
        put32(buf + 13, n->arch);
        put32(buf + 17, n->set);
        put32(buf + 21, n->features);
        put32(buf + 25, n->h);
        put32(buf + 29, n->h2);
        put32(buf + 33, n->base);
        put32(buf + 37, n->reserved);
        memcpy(buf + 41, n->weights, n->nweights);
        write_file(dir, "net", n->name, buf, 41 + n->nweights);
    }
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s CORPUS_DIR (with bpn/, action_text/, actions/, rules/, diff/, net/)\n", argv[0]);
        return 2;
    }
    const char *dir = argv[1];
    /* Games of three kinds: default rules, a turn limit (for draws), card
     * mode (FUZZ_CARD_RULES); features are counted per kind of rules. */
    int saved[2][F_NFEATURES] = {{0}};
    for (int game = 0; game < 1500; game++) {
        int card = game % 3 == 1;
        char rules_text[1024] = "";
        int rules_byte = 0;
        if (card) {
            snprintf(rules_text, sizeof rules_text, "%s", FUZZ_CARD_RULES);
            rules_byte = 0x80;
        } else if (game % 3 == 2) {
            snprintf(rules_text, sizeof rules_text, "turns=%d", 4 + game % 7);
            rules_byte = 3 * 4; /* a limit 3 turns after the start */
        }
        ball_rules rules;
        ball_cardset *cards = NULL;
        if (fuzz_parse_rules(rules_text, &rules, &cards) != BALL_OK)
            return 1;
        ball_game *g = NULL;
        if (ball_game_new(&g, &rules, NULL, 0) != BALL_OK)
            return 1;
        ball_cardset_free(cards);
        for (int d = 0; d < 600; d++) {
            unsigned long bits;
            ball_action acts[BALL_MAX_ACTIONS];
            int n = features(g, &bits);
            for (int f = 0; f < F_NFEATURES; f++) {
                /* one position per game and feature, spread over games */
                if (!(bits >> f & 1) || saved[card][f] >= (card ? 2 : PER_FEATURE) || next() % 8)
                    continue;
                char name[64];
                snprintf(name, sizeof name, "%s%s-%d", card ? "card-" : "", NAMES[f], saved[card][f] + 1);
                emit(dir, g, name, rules_text, rules_byte);
                saved[card][f]++;
                bits = 0; /* not the same position under two names */
            }
            if (n <= 0)
                break;
            /* Prefer anything to `end` so that turns fill with actions, and
             * now and then carry the ball forward so that games end. */
            ball_legal_actions(g, acts, BALL_MAX_ACTIONS);
            int pick = (int)(next() % (unsigned)n);
            if (ball_action_kind(acts[pick]) == BALL_END && n > 1 && next() % 3)
                pick = (int)(next() % (unsigned)(n - 1));
            if (next() % 3 == 0) {
                int ball = ball_square_of_ball(g), best = -1, best_gain = 0;
                int forward = ball_side(g) == BALL_ATK ? 1 : -1;
                for (int i = 0; i < n; i++) {
                    int kind = ball_action_kind(acts[i]);
                    if (ball_action_from(acts[i]) != ball || kind == BALL_LONG_PASS)
                        continue;
                    int to = kind == BALL_DODGE ? ball_action_option(acts[i]) : ball_action_to(acts[i]);
                    int gain = forward * (ball_square_row(to) - ball_square_row(ball));
                    if (gain > best_gain || (gain == best_gain && best >= 0 && next() % 2)) {
                        best = i;
                        best_gain = gain;
                    }
                }
                if (best >= 0)
                    pick = best;
            }
            if (ball_apply(g, acts[pick]) != BALL_OK)
                return 1;
        }
        ball_game_free(g);
    }
    for (size_t i = 0; i < sizeof BPN_SEEDS / sizeof *BPN_SEEDS; i++)
        write_file(dir, "bpn", BPN_SEEDS[i][0], BPN_SEEDS[i][1], strlen(BPN_SEEDS[i][1]));
    for (size_t i = 0; i < sizeof RULES_SEEDS / sizeof *RULES_SEEDS; i++)
        write_file(dir, "rules", RULES_SEEDS[i][0], RULES_SEEDS[i][1], strlen(RULES_SEEDS[i][1]));
    for (size_t i = 0; i < sizeof TEXT_SEEDS / sizeof *TEXT_SEEDS; i++)
        write_file(dir, "action_text", TEXT_SEEDS[i][0], TEXT_SEEDS[i][1], strlen(TEXT_SEEDS[i][1]));
    /* Long streams from the start: the undo history grows past its first
     * allocation. */
    for (int k = 0; k < 3; k++) {
        unsigned char stream[700];
        char name[32];
        stream[0] = (unsigned char)(k * 4); /* rules byte: depths 1, 2, 3 */
        for (size_t i = 1; i < sizeof stream; i++)
            stream[i] = (unsigned char)(next() % 254);
        snprintf(name, sizeof name, "long-%d", k + 1);
        write_file(dir, "actions", name, stream, sizeof stream);
    }
    /* fuzz_diff: long games from the start, default and card rules */
    for (int k = 0; k < 4; k++) {
        unsigned char stream[400];
        size_t len = 0;
        char name[32];
        stream[len++] = '\n'; /* no BPN */
        if (k % 2) {
            stream[len++] = 0x80 | (unsigned char)k;
            memcpy(stream + len, DIFF_CARD_BYTES, sizeof DIFF_CARD_BYTES);
            len += sizeof DIFF_CARD_BYTES;
        } else {
            stream[len++] = (unsigned char)k;
        }
        while (len < sizeof stream)
            stream[len++] = (unsigned char)(next2() % 254);
        snprintf(name, sizeof name, "long-%d", k + 1);
        write_file(dir, "diff", name, stream, sizeof stream);
    }
    net2_seeds(dir);
    for (int f = 0; f < F_NFEATURES; f++)
        printf("%-14s %d, card mode %d\n", NAMES[f], saved[0][f], saved[1][f]);
    return 0;
}
