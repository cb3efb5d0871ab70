/* SPDX-License-Identifier: MIT */
/*
 * tactics_gen — derives the positions of the tactics suite
 * (tests/tactics/suite.txt, docs/yardsticks.md) from real games, each
 * with the set of first decisions proven right by an exhaustive search of
 * the turn; and checks a suite's answers again.
 *
 *   tactics_gen [--games N] [--seed S] [--cap C] [--position-nodes M]
 *               [--out FILE]
 *   tactics_gen --verify FILE [--every K] [--position-nodes M]
 *
 * A position qualifies when the coach to act (S) has at least two legal
 * decisions and, by the first question of these that some first decision
 * answers yes, at most half of the first decisions are right:
 *  - score: S can score a touchdown this turn (R11.1) after some first
 *    decisions; the answers are those that can;
 *  - take: S does not hold the ball and can have it in hand before the
 *    turn passes after some first decisions (a piece of S
 *    that holds the ball at some point of S's turn keeps it to the
 *    hand-over: nothing of S's own release phase takes it away, a release
 *    may always leave it with the upper piece, R9.3);
 *  - safe: S holds the ball, cannot score this turn, and only some first
 *    decisions can lead to a hand-over where S still holds the ball and
 *    the opponent cannot take it in its whole next turn (proven by an
 *    exhaustive search of that turn); the answers are those first
 *    decisions.
 * Every search walks each decision (actions, `end`, release tasks) of
 * the turn, with the positions of a turn merged by ball_hash() (a turn
 * has no cycles: every decision but a hand-off spends PA or a task, and a
 * hand-off never follows a hand-off, R8.2).
 *
 * Generation plays N games (default 150) between built-in and sparring
 * players (player_parse()) under three rulesets (end zones 1, 2 and 3
 * rows deep), the first 0-2 turns random, game k seeded with S + k, and
 * tries every position after the opening; at most one position a turn is
 * kept, at most C (default 120) of a category, each position once. A
 * position whose searches need more than M nodes (default 1,000,000) is
 * left out, so that generation takes a bounded time. The output is
 * deterministic.
 *
 * --verify reads FILE, searches every K-th position again (default 1)
 * without the node bound and exits 1 if a category or an answer set
 * differs (or the line is malformed), 0 if all agree.
 */
#include "args.h"
#include "ball.h"
#include "players.h"
#include "tactics_suite.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_PLY 64 /* decisions of one turn: far fewer (2 PA, hand-offs, end, 14 tasks) */
#define MEMO_BITS 22
#define LINE_MAX 4096

enum query { Q_SCORE = 1, Q_HOLD = 2, Q_SAFE = 3 };
enum category { CAT_NONE = 0, CAT_SCORE = 1, CAT_TAKE = 2, CAT_SAFE = 3 };
static const char *const cat_names[4] = {"none", "score", "take", "safe"};

struct memo_entry {
    uint64_t key;
    uint8_t query;
    uint8_t value; /* 1 yes, 2 no */
};

/* The exhaustive searches of one turn. */
struct oracle {
    ball_game *g;
    ball_action (*acts)[BALL_MAX_ACTIONS]; /* one list per ply */
    struct memo_entry *memo;
    size_t mask;
    long nodes, limit; /* limit 0: none */
    int over;          /* the limit stopped a search: its result means nothing */
    int error;         /* a ball_error of a failed apply/undo, or 0 */
};

static int team_of(int piece) { return (piece & BALL_PIECE_DEF) ? BALL_DEF : BALL_ATK; }

/* 1 if a piece of @p team holds the ball. */
static int holds(ball_game *g, int team)
{
    int p = ball_piece(g, ball_square_of_ball(g), BALL_UPPER);
    return p > 0 && (p & BALL_PIECE_BALL) && team_of(p) == team;
}

static int won_by(ball_game *g, int team)
{
    return ball_result(g) == (team == BALL_ATK ? BALL_ATK_WON : BALL_DEF_WON);
}

static struct memo_entry *memo_slot(struct oracle *o, uint64_t key, int q)
{
    return &o->memo[(key ^ (uint64_t)q * 0x9e3779b97f4a7c15ULL) & o->mask];
}

static int search(struct oracle *o, int q, int team, int ply);

/* Plays decision @p a, answers @p q for the position reached (within the
 * turn of @p team), takes it back. */
static int after(struct oracle *o, ball_action a, int q, int team, int ply)
{
    int r, rc = ball_apply_unchecked(o->g, a);
    if (rc != BALL_OK) {
        o->error = rc;
        return 0;
    }
    o->nodes++;
    r = search(o, q, team, ply + 1);
    rc = ball_undo(o->g);
    if (rc != BALL_OK)
        o->error = rc;
    return r;
}

/*
 * The answer to @p q for the position of o->g, which is in the turn of
 * @p team or just past it:
 *  Q_SCORE: can @p team score before the hand-over?
 *  Q_HOLD:  can a piece of @p team have the ball in hand before it?
 *  Q_SAFE:  can @p team reach a hand-over where it holds the ball and the
 *           opponent cannot have it in hand in its whole next turn (or
 *           score)?
 */
static int search(struct oracle *o, int q, int team, int ply)
{
    ball_game *g = o->g;
    int result = ball_result(g), n, yes = 0;
    uint64_t key;
    struct memo_entry *e;
    ball_action *acts;

    if (won_by(g, team))
        return 1;
    if (q == Q_HOLD && holds(g, team))
        return 1;
    if (result != BALL_ONGOING)
        return 0;
    if (ball_side(g) != team) { /* the turn has passed */
        if (q != Q_SAFE || !holds(g, team))
            return 0;
        return !search(o, Q_HOLD, ball_side(g), ply);
    }
    if (o->over || o->error || ply >= 2 * MAX_PLY - 1)
        return 0;
    if (o->limit && o->nodes > o->limit) {
        o->over = 1;
        return 0;
    }
    key = ball_hash(g);
    e = memo_slot(o, key, q);
    if (e->query == q && e->key == key)
        return e->value == 1;
    acts = o->acts[ply];
    n = ball_legal_actions(g, acts, BALL_MAX_ACTIONS);
    if (n < 0) {
        o->error = n;
        return 0;
    }
    /* one decision ahead first: a touchdown, or the ball in hand, at once
     * (the cheap way to most answers "yes") */
    if (q != Q_SAFE) {
        for (int i = 0; i < n && !yes; i++) {
            int rc = ball_apply_unchecked(g, acts[i]);
            if (rc != BALL_OK) {
                o->error = rc;
                return 0;
            }
            o->nodes++;
            yes = won_by(g, team) || (q == Q_HOLD && holds(g, team));
            if ((rc = ball_undo(g)) != BALL_OK) {
                o->error = rc;
                return 0;
            }
        }
    }
    for (int i = 0; i < n && !yes && !o->over && !o->error; i++)
        yes = after(o, acts[i], q, team, ply);
    if (o->over || o->error)
        return 0;
    e->key = key;
    e->query = (uint8_t)q;
    e->value = yes ? 1 : 2;
    return yes;
}

static int oracle_init(struct oracle *o, ball_game *g)
{
    memset(o, 0, sizeof *o);
    o->g = g;
    o->mask = ((size_t)1 << MEMO_BITS) - 1;
    o->memo = calloc(o->mask + 1, sizeof *o->memo);
    o->acts = malloc(sizeof *o->acts * 2 * MAX_PLY);
    return o->memo && o->acts ? 0 : -1;
}

static void oracle_free(struct oracle *o)
{
    free(o->memo);
    free(o->acts);
}

/* What classify() found about one position. */
struct verdict {
    int category; /* CAT_NONE: the position does not qualify */
    int n;        /* legal decisions */
    int k;        /* answers */
    ball_action acts[BALL_MAX_ACTIONS];
    unsigned char answer[BALL_MAX_ACTIONS];
};

/* Classifies the position of o->g (see the file comment). Returns 0, or -1
 * when the node limit stopped a search (v->category is then CAT_NONE), or
 * a negative ball_error. @p want[c] 0 skips category c; want[0] 1 searches
 * every first decision even when the position cannot qualify (--verify
 * compares the whole verdict), 0 stops as soon as it cannot. */
static int classify(struct oracle *o, const int want[4], struct verdict *v)
{
    ball_game *g = o->g;
    int team = ball_side(g), cat;
    v->category = CAT_NONE;
    v->k = 0;
    o->nodes = 0;
    o->over = 0;
    if (ball_result(g) != BALL_ONGOING)
        return 0;
    v->n = ball_legal_actions(g, v->acts, BALL_MAX_ACTIONS);
    if (v->n < 2)
        return v->n < 0 ? v->n : 0;
    for (cat = CAT_SCORE; cat <= CAT_SAFE; cat++) {
        int q = cat == CAT_SCORE ? Q_SCORE : cat == CAT_TAKE ? Q_HOLD : Q_SAFE;
        if (cat == CAT_TAKE && holds(g, team))
            continue; /* S has the ball: the next question is safety */
        if (cat == CAT_SAFE && !holds(g, team))
            return 0;
        v->k = 0;
        for (int i = 0; i < v->n; i++) {
            v->answer[i] = (unsigned char)after(o, v->acts[i], q, team, 0);
            v->k += v->answer[i];
            if (o->error)
                return o->error;
            if (o->over)
                return -1;
            if (2 * v->k > v->n && !want[0])
                return 0; /* more than half are right: it cannot qualify */
        }
        if (v->k == 0)
            continue; /* nobody can: ask the next question */
        if (2 * v->k <= v->n && want[cat])
            v->category = cat; /* right: at most half of the decisions */
        return 0; /* the first question some decision answers decides */
    }
    return 0;
}

/* Writes the answers of @p v as N2 texts separated by spaces. */
static void answers_text(const struct verdict *v, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < v->n; i++) {
        char t[BALL_ACTION_TEXT_MAX];
        if (!v->answer[i] || ball_action_to_text(v->acts[i], t, sizeof t) < 0)
            continue;
        used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? " " : "", t);
        if (used >= len)
            break;
    }
}

/* ------------------------------------------------------------------ */

static const char *const rulesets[] = {"", "zone=2", "zone=3"};
#define NUM_RULESETS 3
static const char *const pairings[][2] = {
    {"greedy", "greedy"},
    {"alphabeta:nodes=1500", "greedy"},
    {"random", "greedy"},
    {"turn:nodes=20000", "mcts:playouts=300"},
    {"mcts:playouts=300", "random"},
    {"alphabeta:nodes=1500", "turn:nodes=20000"},
};
#define NUM_PAIRINGS 6

struct kept {
    int category;
    int rules;
    char bpn[BALL_BPN_MAX];
    int n;
    char *answers;
};

static int new_game(ball_game **g, const char *rules_text)
{
    ball_rules rules;
    ball_cardset *cards = NULL;
    char err[256];
    ball_rules_init(&rules, sizeof rules);
    if (ball_rules_from_text(&rules, &cards, rules_text, err, sizeof err) != BALL_OK) {
        fprintf(stderr, "tactics_gen: rules '%s': %s\n", rules_text, err);
        return -1;
    }
    if (ball_game_new(g, &rules, err, sizeof err) != BALL_OK) {
        fprintf(stderr, "tactics_gen: %s\n", err);
        ball_cardset_free(cards);
        return -1;
    }
    ball_cardset_free(cards);
    return 0;
}

static int generate(long games, unsigned long seed, int cap, long position_nodes, const char *out)
{
    static struct verdict v;
    struct oracle o;
    struct kept *kept;
    int counts[4] = {0, 0, 0, 0}, nkept = 0, max_kept = 3 * cap;
    uint64_t *seen;
    size_t seen_n = 0;
    long tried = 0, too_big = 0;
    FILE *f;

    kept = calloc((size_t)max_kept, sizeof *kept);
    seen = calloc((size_t)max_kept, sizeof *seen);
    if (kept == NULL || seen == NULL || oracle_init(&o, NULL) != 0) {
        fprintf(stderr, "tactics_gen: out of memory\n");
        return 1;
    }
    o.limit = position_nodes;
    for (long k = 0; k < games && nkept < max_kept; k++) {
        int r = (int)(k % NUM_RULESETS), pr = (int)(k / NUM_RULESETS % NUM_PAIRINGS);
        int swap = (int)(k / (NUM_RULESETS * NUM_PAIRINGS) % 2);
        unsigned opening = (unsigned)(k % 3);
        uint32_t s = (uint32_t)(seed + (unsigned long)k), rng = s ? s : 1;
        player players[2];
        ball_game *g = NULL;
        ball_action acts[BALL_MAX_ACTIONS];
        int kept_turn = 0;
        if (new_game(&g, rulesets[r]) != 0)
            return 1;
        for (int t = 0; t < 2; t++) {
            if (player_parse(pairings[pr][t ^ swap], 0, s + (uint32_t)t, &players[t]) != 0) {
                fprintf(stderr, "tactics_gen: player '%s'\n", pairings[pr][t ^ swap]);
                return 1;
            }
        }
        o.g = g;
        while (ball_result(g) == BALL_ONGOING && ball_turn(g) <= 100) {
            ball_action a;
            int n = ball_legal_actions(g, acts, BALL_MAX_ACTIONS), rc;
            if (n <= 0)
                break;
            if ((unsigned)ball_turn(g) > opening && kept_turn != ball_turn(g)) {
                int want[4] = {0, counts[1] < cap, counts[2] < cap, counts[3] < cap};
                uint64_t h = ball_hash(g) ^ (uint64_t)r;
                int dup = 0;
                for (size_t i = 0; i < seen_n && !dup; i++)
                    dup = seen[i] == h;
                if (!dup) {
                    tried++;
                    rc = classify(&o, want, &v);
                    if (rc == -1)
                        too_big++;
                    else if (rc < 0) {
                        fprintf(stderr, "tactics_gen: game %ld: %s\n", k, ball_strerror(rc));
                        return 1;
                    }
                    if (v.category != CAT_NONE) {
                        struct kept *kp = &kept[nkept++];
                        char buf[LINE_MAX];
                        kp->category = v.category;
                        kp->rules = r;
                        kp->n = v.n;
                        ball_position_to_text(g, kp->bpn, sizeof kp->bpn);
                        answers_text(&v, buf, sizeof buf);
                        kp->answers = malloc(strlen(buf) + 1);
                        if (kp->answers == NULL) {
                            fprintf(stderr, "tactics_gen: out of memory\n");
                            return 1;
                        }
                        memcpy(kp->answers, buf, strlen(buf) + 1);
                        counts[v.category]++;
                        seen[seen_n++] = h;
                        kept_turn = ball_turn(g);
                        if (nkept >= max_kept)
                            break;
                    }
                }
            }
            if ((unsigned)ball_turn(g) <= opening) {
                uint64_t x = (uint64_t)player_xorshift32(&rng) << 32 | player_xorshift32(&rng);
                rc = ball_random_action(g, x, &a);
            } else {
                rc = player_choose(&players[ball_side(g)], g, acts, n, &a);
            }
            if (rc == BALL_OK)
                rc = ball_apply(g, a);
            if (rc != BALL_OK) {
                fprintf(stderr, "tactics_gen: game %ld: %s\n", k, ball_strerror(rc));
                return 1;
            }
        }
        player_free(&players[0]);
        player_free(&players[1]);
        ball_game_free(g);
        fprintf(stderr, "\rtactics_gen: game %ld of %ld: score %d, take %d, safe %d", k + 1, games,
                counts[1], counts[2], counts[3]);
    }
    fprintf(stderr, "\ntactics_gen: %ld positions tried, %ld over the node bound\n", tried, too_big);
    f = out ? fopen(out, "w") : stdout;
    if (f == NULL) {
        perror(out);
        return 1;
    }
    fprintf(f,
            "# The tactics suite of docs/yardsticks.md: positions from real games whose\n"
            "# right first decisions are proven by an exhaustive search of the turn.\n"
            "# Written by: tactics_gen --games %ld --seed %lu --cap %d --position-nodes %ld\n"
            "# Checked by tests/search/tactics_test.sh (tactics_gen --verify), scored by\n"
            "# `tactics --player NAME --suite FILE`.\n"
            "#\n"
            "# One position a line, five fields separated by '|':\n"
            "#   CATEGORY|RULES|BPN|N|ANSWERS\n"
            "# CATEGORY  score: the side to act can score this turn; take: it does not\n"
            "#           hold the ball, cannot score, and can have the ball in hand before\n"
            "#           the turn passes; safe: it holds the ball, cannot score, and can\n"
            "#           reach a hand-over where it still holds the ball and the opponent\n"
            "#           cannot take it in its whole next turn. In each, at most half of\n"
            "#           the first decisions can (and at least one).\n"
            "# RULES     the ruleset, in the text of ball_rules_from_text() (empty: the\n"
            "#           default; no turn limit).\n"
            "# BPN       the position (N1).\n"
            "# N         the number of legal decisions.\n"
            "# ANSWERS   the first decisions that achieve it (N2 text, separated by\n"
            "#           spaces, in the order of ball_legal_actions()); a player solves\n"
            "#           the position when its decision is one of them.\n"
            "# Counts: score %d, take %d, safe %d.\n",
            games, seed, cap, position_nodes, counts[1], counts[2], counts[3]);
    for (int c = CAT_SCORE; c <= CAT_SAFE; c++)
        for (int i = 0; i < nkept; i++)
            if (kept[i].category == c)
                fprintf(f, "%s|%s|%s|%d|%s\n", cat_names[c], rulesets[kept[i].rules], kept[i].bpn,
                        kept[i].n, kept[i].answers);
    for (int i = 0; i < nkept; i++)
        free(kept[i].answers);
    free(kept);
    free(seen);
    oracle_free(&o);
    if (f != stdout && fclose(f) != 0) {
        perror(out);
        return 1;
    }
    return 0;
}

static int verify(const char *file, long every, long position_nodes)
{
    static struct verdict v;
    static char line[LINE_MAX], copy[LINE_MAX];
    struct oracle o;
    FILE *f = fopen(file, "r");
    long lineno = 0, entries = 0, checked = 0, bad = 0;
    int all[4] = {1, 1, 1, 1};
    if (f == NULL) {
        perror(file);
        return 1;
    }
    if (oracle_init(&o, NULL) != 0) {
        fprintf(stderr, "tactics_gen: out of memory\n");
        return 1;
    }
    o.limit = position_nodes;
    while (fgets(line, sizeof line, f)) {
        char *field[5], got[LINE_MAX], nbuf[16];
        ball_game *g = NULL;
        int rc;
        lineno++;
        if (line[0] == '#' || line[0] == '\n')
            continue;
        if (entries++ % every != 0)
            continue;
        checked++;
        memcpy(copy, line, sizeof line);
        if (suite_split(copy, field) != 0) {
            printf("%s:%ld: not five fields separated by '|'\n", file, lineno);
            bad++;
            continue;
        }
        if (new_game(&g, field[1]) != 0) {
            printf("%s:%ld: bad rules '%s'\n", file, lineno, field[1]);
            bad++;
            continue;
        }
        if (ball_position_from_text(g, field[2]) != BALL_OK) {
            printf("%s:%ld: bad BPN: %s\n", file, lineno, ball_errmsg(g));
            bad++;
            ball_game_free(g);
            continue;
        }
        o.g = g;
        memset(o.memo, 0, (o.mask + 1) * sizeof *o.memo); /* from scratch */
        rc = classify(&o, all, &v);
        answers_text(&v, got, sizeof got);
        snprintf(nbuf, sizeof nbuf, "%d", v.n);
        if (rc != 0) {
            printf("%s:%ld: the search stopped (%s)\n", file, lineno,
                   rc == -1 ? "node bound" : ball_strerror(rc));
            bad++;
        } else if (strcmp(cat_names[v.category], field[0]) != 0 || strcmp(nbuf, field[3]) != 0
                   || strcmp(got, field[4]) != 0) {
            printf("%s:%ld: the file says %s, %s decisions, answers '%s'; the search finds %s, %s, "
                   "'%s'\n", file, lineno, field[0], field[3], field[4], cat_names[v.category],
                   nbuf, got);
            bad++;
        }
        ball_game_free(g);
    }
    fclose(f);
    oracle_free(&o);
    printf("tactics_gen: %ld of %ld positions checked, %ld wrong\n", checked, entries, bad);
    return bad || checked == 0 ? 1 : 0;
}

int main(int argc, char **argv)
{
    long games = 150, cap = 120, every = 1, position_nodes = 1000000;
    unsigned long seed = 1;
    const char *out = NULL, *verify_file = NULL;
    int nodes_given = 0;
    for (int i = 1; i < argc; i++) {
        const char *opt = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
        long v = 0;
        if (strcmp(opt, "--help") == 0) {
            puts("usage: tactics_gen [--games N] [--seed S] [--cap C] [--position-nodes M] [--out FILE]\n"
                 "       tactics_gen --verify FILE [--every K] [--position-nodes M]");
            return 0;
        }
        if (val == NULL) {
            fprintf(stderr, "tactics_gen: %s needs a value\n", opt);
            return 2;
        }
        i++;
        if (strcmp(opt, "--out") == 0)
            out = val;
        else if (strcmp(opt, "--verify") == 0)
            verify_file = val;
        else if (strcmp(opt, "--games") == 0)
            v = games = parse_number(val, 1, 100000);
        else if (strcmp(opt, "--seed") == 0)
            v = (long)(seed = (unsigned long)parse_number(val, 0, 4294967295L));
        else if (strcmp(opt, "--cap") == 0)
            v = cap = parse_number(val, 1, 100000);
        else if (strcmp(opt, "--every") == 0)
            v = every = parse_number(val, 1, 1000000);
        else if (strcmp(opt, "--position-nodes") == 0)
            v = position_nodes = parse_number(val, 0, 2000000000L), nodes_given = 1;
        else {
            fprintf(stderr, "tactics_gen: unknown option '%s'\n", opt);
            return 2;
        }
        if (v < 0) {
            fprintf(stderr, "tactics_gen: bad value '%s' for %s\n", val, opt);
            return 2;
        }
    }
    if (verify_file) /* without a node bound unless one is asked for */
        return verify(verify_file, every, nodes_given ? position_nodes : 0);
    return generate(games, seed, (int)cap, position_nodes, out);
}
