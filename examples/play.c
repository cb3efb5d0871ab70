/* SPDX-License-Identifier: MIT */
/*
 * play — BALL in the terminal: a human against a built-in player, or two
 * humans (or two built-in players, to watch).
 *
 *   play [--atk PLAYER] [--def PLAYER]   (human, random, greedy or mcts[:...])
 *        [--seed N] [--turn-limit N] [--depth-zone N] [--bpn BPN | --load FILE]
 *
 * `record FILE` saves the whole game as a game record (docs/records.md:
 * the players, the date, the ruleset, every decision), `save FILE` only
 * the position (BPN); `load FILE` and --load read either.
 *
 * Default: you play DEF (who moves first, R2.3) against the greedy ATK.
 *
 * An action is chosen one step at a time, as R12 says: the piece, the
 * action (a verb: - move, = hand-off, ^ short pass, ^^ long pass), the
 * destination, then the exit of a dodge / the push square of a tactical
 * dodge / the lower piece's square of a release, then the keeper. The
 * library lists the choices of each step (ball_select) and the game is not
 * touched until the action is whole. Once the piece is chosen, only the
 * kinds of action it has are offered, each with its squares (destinations,
 * receivers, ball squares); a square alone chooses a move. `c` (or the ESC
 * key then Enter) cancels the selection. A whole action can also be typed in N2 notation
 * ("G5-F6", "end"). Commands are read from standard input, one per line,
 * so a script can drive the program; type `help` for the list.
 */
#define _POSIX_C_SOURCE 200809L /* isatty, fileno */

#include "args.h"
#include "ball.h"
#include "board.h"
#include "players.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* Everything the session needs; no global state. */
struct session {
    ball_game *g;
    player players[2]; /* by team */
    int chosen[BALL_SELECT_STEPS]; /* the selection so far (R12) */
    size_t n_chosen;
    int echo;          /* echo commands (input is not a terminal) */
};

static const char *team_name(int team)
{
    return team == BALL_ATK ? "ATK" : "DEF";
}

static int is_human(const struct session *s, int team)
{
    return s->players[team].kind == PLAYER_HUMAN;
}

static void print_help(void)
{
    puts("commands:\n"
         "  SQUARE          choose a square (a piece, a destination, an exit, ...)\n"
         "  - = ^ ^^        choose the action: move, hand-off, short pass, long pass\n"
         "  c, ESC          cancel the selection (the game is not touched)\n"
         "  ACTION          a whole action in notation, e.g. G5-F6, E9-E7/D6, end\n"
         "  ok              play the selection when it is whole but could go on\n"
         "  end             end the action phase\n"
         "  undo, u         take back your last decision (and the opponent's since)\n"
         "  legal           list the legal decisions\n"
         "  board           show the board again\n"
         "  bpn             print the position in BPN\n"
         "  save FILE       write the position to FILE (BPN)\n"
         "  record FILE     write the whole game to FILE (a game record)\n"
         "  load FILE       read a game record or a position (BPN) from FILE\n"
         "  help            this text\n"
         "  quit, q         leave");
}

/* The legal action whose first three choices are from, verb, to and that
 * has a sub-choice: its kind tells what the sub-choice is. */
static int kind_with_option(ball_game *g, int from, int to)
{
    ball_action acts[BALL_MAX_ACTIONS];
    int n = ball_legal_actions(g, acts, BALL_MAX_ACTIONS);
    for (int i = 0; i < n; i++)
        if (ball_action_from(acts[i]) == from && ball_action_to(acts[i]) == to &&
            ball_action_option(acts[i]) >= 0 && ball_action_option(acts[i]) != BALL_NO_SQUARE)
            return ball_action_kind(acts[i]);
    return 0;
}

/* What the next selection step asks for, in words. */
static const char *step_question(struct session *s)
{
    int release = ball_phase(s->g) == BALL_PHASE_RELEASE;
    int state = ball_square_state(s->g, s->chosen[0]);
    int stack = release && state > 0 && (state & BALL_SQ_STACK);
    switch (s->n_chosen) {
    case 0: return release ? "choose a release task" : "choose a piece";
    case 1:
        return release ? "choose - then the square (or the square alone)"
             : "choose an action by its sign (a square alone is a move)";
    case 2:
        switch (s->chosen[1]) {
        case BALL_VERB_HANDOFF: return "choose the receiver (R8.2)";
        case BALL_VERB_SHORT_PASS: return "choose the ball square, next to a receiver (R8.3)";
        case BALL_VERB_LONG_PASS: return "choose the ball square (R8.4)";
        default:
            return stack ? "choose the upper piece's square (R9.3)"
                 : release ? "choose where it stands up (R9.2)" : "choose a destination";
        }
    case 3:
        switch (kind_with_option(s->g, s->chosen[0], s->chosen[2])) {
        case BALL_DODGE: return "choose the exit square (R6.1)";
        case BALL_TACTICAL_DODGE: return "choose the push square (R6.2)";
        default: return "choose the lower piece's square (R9.3)";
        }
    default: return "choose who keeps the ball (R9.3)";
    }
}

/* Prints choice @p value of selection step @p step; returns its width. */
static int print_choice(int step, int value)
{
    static const char *const verbs[] = {"?", "-", "=", "^", "^^", "card"};
    char name[BALL_SQUARE_TEXT_MAX];
    if (step == 1)
        strcpy(name, value >= 1 && value <= BALL_VERB_CARD ? verbs[value] : "?");
    else if (ball_square_to_text(value, name, sizeof name) < 0)
        strcpy(name, "?");
    fputs(name, stdout);
    return (int)strlen(name);
}

/* Prints @p word after the @p *col columns already on the line, on a new
 * line indented by @p indent when it would go past 80 columns. */
static void put_word(const char *word, int *col, int indent)
{
    int len = (int)strlen(word);
    if (*col + 1 + len > 80) {
        printf("\n%*s", indent, "");
        *col = indent;
    } else {
        putchar(' ');
        (*col)++;
    }
    fputs(word, stdout);
    *col += len;
}

/* The step-1 line of verb @p verb: what its next choice is. */
static const char *verb_label(int verb, int release, int stack)
{
    switch (verb) {
    case BALL_VERB_MOVE:
        return stack ? "release, the upper piece to (R9.3):"
             : release ? "stand up at (R9.2):" : "move to:";
    case BALL_VERB_HANDOFF: return "hand-off to (R8.2):";
    case BALL_VERB_SHORT_PASS: return "short pass, ball square (R8.3):";
    case BALL_VERB_LONG_PASS: return "long pass, ball square (R8.4):";
    default: return "card (type the whole action):";
    }
}

/* After the piece is chosen: the kinds of action it has among the legal
 * decisions (@p verbs, the n choices ball_select gives for step 1), one
 * line each with the squares of the next step (destinations, receivers,
 * ball squares), and the cards that target it as whole actions. */
static void print_verbs(struct session *s, const int *verbs, int n)
{
    static const char *const signs[] = {"?", "-", "=", "^", "^^", "card"};
    int release = ball_phase(s->g) == BALL_PHASE_RELEASE;
    int state = ball_square_state(s->g, s->chosen[0]);
    int stack = release && state > 0 && (state & BALL_SQ_STACK);
    for (int i = 0; i < n; i++) {
        int chosen[BALL_SELECT_STEPS], squares[BALL_NUM_SQUARES];
        char word[BALL_ACTION_TEXT_MAX];
        int verb = verbs[i] >= 1 && verbs[i] <= BALL_VERB_CARD ? verbs[i] : 0;
        int col = verb == BALL_VERB_CARD ? printf("  %s", verb_label(verb, release, stack))
                                         : printf("  %-2s %s", signs[verb], verb_label(verb, release, stack));
        if (verb == BALL_VERB_CARD) {
            /* the next step is a hand index: the whole actions instead */
            ball_action acts[BALL_MAX_ACTIONS];
            int k = ball_legal_actions(s->g, acts, BALL_MAX_ACTIONS);
            for (int j = 0; j < k; j++)
                if (ball_action_kind(acts[j]) == BALL_PLAY_CARD && ball_action_from(acts[j]) == s->chosen[0] &&
                    ball_action_to_text(acts[j], word, sizeof word) > 0)
                    put_word(word, &col, 6);
        } else {
            memcpy(chosen, s->chosen, sizeof chosen);
            chosen[1] = verb;
            int m = ball_select(s->g, chosen, 2, squares, BALL_NUM_SQUARES, NULL);
            for (int j = 0; j < m; j++)
                if (ball_square_to_text(squares[j], word, sizeof word) > 0)
                    put_word(word, &col, 6);
        }
        putchar('\n');
    }
}

/* The selection as text, e.g. "[G9 - I11] "; returns its width. */
static int print_selection(const struct session *s)
{
    int col = 0;
    for (size_t i = 0; i < s->n_chosen; i++) {
        putchar(i ? ' ' : '[');
        col += 1 + print_choice((int)i, s->chosen[i]);
    }
    if (s->n_chosen) {
        fputs("] ", stdout);
        col += 2;
    }
    return col;
}

/* The state line: whose turn, phase, PA left; or the result. */
static void print_status(struct session *s)
{
    ball_game *g = s->g;
    int side = ball_side(g);
    ball_rules rules;
    ball_rules_init(&rules, sizeof rules);
    ball_game_rules(g, &rules);
    switch (ball_result(g)) {
    case BALL_ATK_WON:
    case BALL_DEF_WON:
        printf("Touchdown! %s wins at turn %d.\n", team_name(side), ball_turn(g));
        return;
    case BALL_DRAW:
        printf("Draw: turn limit %u reached.\n", rules.turn_limit);
        return;
    default:
        break;
    }
    printf("Turn %d", ball_turn(g));
    if (rules.turn_limit)
        printf(" of %u", rules.turn_limit);
    printf(" | %s to act (%s) | %s phase", team_name(side), player_name(&s->players[side]),
           ball_phase(g) == BALL_PHASE_ACTION ? "action" : "release");
    if (ball_phase(g) == BALL_PHASE_ACTION)
        printf(" | PA left: %d%s", ball_pa(g), ball_handoff_last(g) == 1 ? " (after a hand-off)" : "");
    putchar('\n');
    if (ball_phase(g) == BALL_PHASE_RELEASE) {
        ball_task tasks[BALL_MAX_TASKS];
        int n = ball_release_tasks(g, tasks, BALL_MAX_TASKS);
        fputs("release tasks:", stdout);
        for (int i = 0; i < n; i++) {
            char name[BALL_SQUARE_TEXT_MAX];
            if (ball_square_to_text(ball_task_square(tasks[i]), name, sizeof name) < 0)
                strcpy(name, "?");
            printf(" %s %s%s", name,
                   ball_task_kind(tasks[i]) == BALL_TASK_STAND_UP ? "stand up" : "release",
                   ball_task_solvable(tasks[i]) ? "" : " (no solution)");
            if (i + 1 < n)
                putchar(',');
        }
        putchar('\n');
    }
}

/* The choices of the next step (marked on the board when they are
 * squares), or the completed action. Returns the number of choices. */
static int show_choices(struct session *s, int with_board)
{
    int choices[BALL_NUM_SQUARES];
    unsigned char marked[BALL_NUM_SQUARES] = {0};
    ball_action whole = BALL_ACTION_NONE;
    int n = ball_select(s->g, s->chosen, s->n_chosen, choices, BALL_NUM_SQUARES, &whole);
    if (n < 0)
        return n;
    if (s->n_chosen != 1) /* the verbs of step 1 are no squares */
        for (int i = 0; i < n; i++)
            marked[choices[i]] = 1;
    if (with_board) {
        board_print(s->g, s->n_chosen ? marked : NULL, stdout);
        print_status(s);
    }
    if (n > 0 && s->n_chosen == 1) {
        print_selection(s);
        printf("%s:\n", step_question(s));
        print_verbs(s, choices, n);
    } else if (n > 0) {
        char word[BALL_SQUARE_TEXT_MAX];
        int col = print_selection(s);
        col += printf("%s:", step_question(s));
        for (int i = 0; i < n; i++) {
            if (ball_square_to_text(choices[i], word, sizeof word) < 0)
                strcpy(word, "?");
            put_word(word, &col, 4);
        }
        putchar('\n');
    }
    return n;
}

static void show(struct session *s)
{
    if (ball_result(s->g) != BALL_ONGOING || !is_human(s, ball_side(s->g))) {
        board_print(s->g, NULL, stdout);
        print_status(s);
        return;
    }
    show_choices(s, 1);
}

static void cancel_selection(struct session *s)
{
    s->n_chosen = 0;
}

/* Plays @p a for the side to act and says so. */
static int play_action(struct session *s, ball_action a)
{
    char text[BALL_ACTION_TEXT_MAX];
    int side = ball_side(s->g);
    int rc = ball_apply(s->g, a);
    if (rc != BALL_OK) {
        printf("cannot play that: %s\n", ball_errmsg(s->g));
        return rc;
    }
    ball_action_to_text(a, text, sizeof text);
    printf("%s plays %s\n", team_name(side), text);
    cancel_selection(s);
    return BALL_OK;
}

/* A built-in player plays its whole turn (until the coach to act changes
 * or the game ends), printed on one line. */
static int bot_turn(struct session *s)
{
    int side = ball_side(s->g);
    ball_action acts[BALL_MAX_ACTIONS];
    printf("%s (%s) plays:", team_name(side), player_name(&s->players[side]));
    while (ball_result(s->g) == BALL_ONGOING && ball_side(s->g) == side) {
        char text[BALL_ACTION_TEXT_MAX];
        ball_action a;
        int turn = ball_turn(s->g);
        int n = ball_legal_actions(s->g, acts, BALL_MAX_ACTIONS);
        int rc = n > 0 ? player_choose(&s->players[side], s->g, acts, n, &a) : BALL_E_ILLEGAL;
        if (rc == BALL_OK)
            rc = ball_apply(s->g, a);
        if (rc != BALL_OK) {
            printf("\nplay: the %s player failed: %s\n", player_name(&s->players[side]),
                   ball_errmsg(s->g));
            return rc;
        }
        ball_action_to_text(a, text, sizeof text);
        printf(" %s", text);
        if (ball_turn(s->g) != turn)
            break; /* a turn-limit draw keeps the side; the turn still ended */
    }
    putchar('\n');
    return BALL_OK;
}

/* Takes back decisions until it is a human's decision again (at least one). */
static void undo(struct session *s)
{
    int count = 0;
    cancel_selection(s);
    if (ball_history_length(s->g) == 0) {
        puts("nothing to undo");
        return;
    }
    do {
        if (ball_undo(s->g) != BALL_OK)
            break;
        count++;
    } while (ball_history_length(s->g) > 0 && !is_human(s, ball_side(s->g)));
    printf("took back %d decision%s\n", count, count == 1 ? "" : "s");
}

static void save(struct session *s, const char *path)
{
    char bpn[BALL_BPN_MAX];
    FILE *f;
    if (*path == '\0') {
        puts("save: give a file name");
        return;
    }
    if (ball_position_to_text(s->g, bpn, sizeof bpn) < 0 || (f = fopen(path, "w")) == NULL) {
        printf("save: cannot write %s\n", path);
        return;
    }
    fprintf(f, "%s\n", bpn);
    if (fclose(f) != 0)
        printf("save: cannot write %s\n", path);
    else
        printf("saved to %s\n", path);
}

/* Writes the game record to @p path: the players and today's date as
 * tags, the ruleset, the start and every decision since. */
static void save_record(struct session *s, const char *path)
{
    char date[16];
    time_t now = time(NULL);
    struct tm *tm = localtime(&now);
    FILE *f;
    if (*path == '\0') {
        puts("record: give a file name");
        return;
    }
    if (tm && strftime(date, sizeof date, "%Y-%m-%d", tm) > 0)
        ball_game_set_tag(s->g, BALL_TAG_DATE, date);
    ball_game_set_tag(s->g, BALL_TAG_EVENT, "play");
    ball_game_set_tag(s->g, BALL_TAG_ATK, player_name(&s->players[BALL_ATK]));
    ball_game_set_tag(s->g, BALL_TAG_DEF, player_name(&s->players[BALL_DEF]));
    int n = ball_record_write(s->g, NULL, 0);
    char *text = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (text == NULL || ball_record_write(s->g, text, (size_t)n + 1) < 0 || (f = fopen(path, "w")) == NULL) {
        printf("record: cannot write %s\n", path);
        free(text);
        return;
    }
    fputs(text, f);
    free(text);
    if (fclose(f) != 0)
        printf("record: cannot write %s\n", path);
    else
        printf("game record saved to %s\n", path);
}

/* Reads a game record (a text starting with '[') or a BPN (its first
 * line) from @p path; 0 on success. A record replaces the game, its
 * ruleset included. */
static int load(struct session *s, const char *path)
{
    char line[BALL_BPN_MAX + 2], err[256];
    FILE *f = *path ? fopen(path, "r") : NULL;
    size_t len = 0, cap = 1 << 16;
    char *text = f ? malloc(cap) : NULL;
    if (f == NULL || text == NULL) {
        printf("load: cannot read '%s'\n", path);
        if (f)
            fclose(f);
        return -1;
    }
    while ((len += fread(text + len, 1, cap - len, f)) == cap) {
        char *bigger = realloc(text, cap *= 2);
        if (bigger == NULL)
            break;
        text = bigger;
    }
    fclose(f);
    if (len > 0 && text[strspn(text, " \t\r\n") < len ? strspn(text, " \t\r\n") : 0] == '[') {
        size_t at = 0;
        ball_game *g = NULL;
        int rc = ball_record_read(&g, text, len, &at, err, sizeof err);
        free(text);
        if (rc != 1) {
            printf("load: %s: %s\n", path, rc == 0 ? "no game record" : err);
            return -1;
        }
        ball_game_free(s->g);
        s->g = g;
        cancel_selection(s);
        printf("loaded the game record %s (%d decisions)\n", path, ball_history_length(g));
        return 0;
    }
    snprintf(line, sizeof line, "%.*s", (int)(len < sizeof line - 1 ? len : sizeof line - 1), text);
    free(text);
    line[strcspn(line, "\r\n")] = '\0';
    if (ball_position_from_text(s->g, line) != BALL_OK) {
        printf("load: %s\n", ball_errmsg(s->g));
        return -1;
    }
    cancel_selection(s);
    printf("loaded %s\n", path);
    return 0;
}

static void list_legal(struct session *s)
{
    ball_action acts[BALL_MAX_ACTIONS];
    int n = ball_legal_actions(s->g, acts, BALL_MAX_ACTIONS);
    printf("%d legal decision%s:", n, n == 1 ? "" : "s");
    for (int i = 0; i < n; i++) {
        char text[BALL_ACTION_TEXT_MAX];
        ball_action_to_text(acts[i], text, sizeof text);
        printf(" %s", text);
    }
    putchar('\n');
}

/* The verb written @p word, or 0. */
static int parse_verb(const char *word)
{
    static const char *const verbs[] = {"", "-", "=", "^", "^^"};
    for (int v = 1; v <= 4; v++)
        if (strcmp(word, verbs[v]) == 0)
            return v;
    return 0;
}

/* One more selection step with choice @p value; plays the action when it
 * is whole. Returns 1 if the choice was taken. */
static int choose(struct session *s, int value)
{
    int choices[BALL_NUM_SQUARES];
    ball_action whole = BALL_ACTION_NONE;
    int n;
    s->chosen[s->n_chosen++] = value;
    n = ball_select(s->g, s->chosen, s->n_chosen, choices, BALL_NUM_SQUARES, &whole);
    if (n < 0) {
        s->n_chosen--;
        return 0;
    }
    if (n == 0 && whole != BALL_ACTION_NONE) {
        play_action(s, whole);
    } else if (whole != BALL_ACTION_NONE) {
        /* whole already, yet a longer action starts the same way */
        char text[BALL_ACTION_TEXT_MAX];
        ball_action_to_text(whole, text, sizeof text);
        printf("%s is a whole action: type ok to play it, or choose on\n", text);
    }
    return 1;
}

/* `ok`: plays the selection when it is a whole action. */
static void play_selection(struct session *s)
{
    int choices[BALL_NUM_SQUARES];
    ball_action whole = BALL_ACTION_NONE;
    if (s->n_chosen == 0 ||
        ball_select(s->g, s->chosen, s->n_chosen, choices, BALL_NUM_SQUARES, &whole) < 0 ||
        whole == BALL_ACTION_NONE) {
        puts("the selection is not a whole action yet");
        return;
    }
    play_action(s, whole);
}

/* A square, a verb, or an action typed while selecting. */
/* 1 when @p word was meant as an action in notation (N2), however
 * mistyped: it holds a '-' or begins with a column letter and a digit
 * (E11-F1O, e11-f10, E11), so that its error is the notation's, not
 * "unknown command". */
static int looks_like_action(const char *word)
{
    int col = (word[0] >= 'A' && word[0] <= 'M') || (word[0] >= 'a' && word[0] <= 'm');
    return strchr(word, '-') != NULL || (col && word[1] >= '0' && word[1] <= '9');
}

static void handle_choice(struct session *s, const char *word)
{
    int verb = parse_verb(word);
    int sq = ball_square_from_text(word);
    ball_action a;

    if (s->n_chosen == 1 && verb) {
        if (!choose(s, verb))
            printf("not an action of this piece: %s\n", word);
        return;
    }
    if (s->n_chosen != 1 && sq >= 0 && s->n_chosen < BALL_SELECT_STEPS) {
        if (!choose(s, sq))
            printf("not a choice here: %s\n", word);
        return;
    }
    if (s->n_chosen == 1 && sq >= 0) {
        /* a square where a verb belongs: a move there, if there is one */
        if (choose(s, BALL_VERB_MOVE)) {
            if (!choose(s, sq)) {
                s->n_chosen--;
                printf("not a choice here: %s\n", word);
            }
        } else {
            printf("not a choice here: %s\n", word);
        }
        return;
    }
    /* a whole action in notation */
    switch (ball_action_from_text(s->g, word, &a)) {
    case BALL_OK:
        play_action(s, a);
        return;
    case BALL_E_ILLEGAL:
        printf("not legal: %s\n", ball_errmsg(s->g));
        return;
    default:
        if (looks_like_action(word))
            printf("notation error: %s (type legal for the legal actions)\n", ball_errmsg(s->g));
        else
            printf("unknown command '%s' (type help)\n", word);
    }
}

/* Handles one input line; returns 0 to go on, 1 to quit. */
static int handle_line(struct session *s, char *line)
{
    char *cmd, *arg;
    int changed_position;
    int before = ball_history_length(s->g);
    char bpn_before[BALL_BPN_MAX];

    line[strcspn(line, "\r\n")] = '\0';
    cmd = line + strspn(line, " \t");
    if (*cmd == '\033') { /* the ESC key (then Enter): cancel (R12) */
        cancel_selection(s);
        puts("selection cancelled");
        return 0;
    }
    arg = cmd + strcspn(cmd, " \t");
    if (*arg)
        *arg++ = '\0';
    arg += strspn(arg, " \t");
    arg[strcspn(arg, " \t")] = '\0';
    if (*cmd == '\0')
        return 0;
    ball_position_to_text(s->g, bpn_before, sizeof bpn_before);

    if (strcmp(cmd, "quit") == 0 || strcmp(cmd, "q") == 0 || strcmp(cmd, "exit") == 0)
        return 1;
    if (strcmp(cmd, "help") == 0 || strcmp(cmd, "?") == 0) {
        print_help();
        return 0;
    }
    if (strcmp(cmd, "c") == 0 || strcmp(cmd, "cancel") == 0 || strcmp(cmd, "esc") == 0) {
        cancel_selection(s);
        puts("selection cancelled");
        return 0;
    }
    if (strcmp(cmd, "board") == 0 || strcmp(cmd, "show") == 0) {
        show(s);
        return 0;
    }
    if (strcmp(cmd, "bpn") == 0) {
        puts(bpn_before);
        return 0;
    }
    if (strcmp(cmd, "legal") == 0) {
        list_legal(s);
        return 0;
    }
    if (strcmp(cmd, "save") == 0) {
        save(s, arg);
        return 0;
    }
    if (strcmp(cmd, "record") == 0) {
        save_record(s, arg);
        return 0;
    }
    if (strcmp(cmd, "load") == 0) {
        if (load(s, arg) == 0)
            show(s);
        return 0;
    }
    if (strcmp(cmd, "undo") == 0 || strcmp(cmd, "u") == 0) {
        undo(s);
        show(s);
        return 0;
    }
    if (ball_result(s->g) != BALL_ONGOING) {
        puts("the game is over: undo, load, save, board or quit");
        return 0;
    }
    if (!is_human(s, ball_side(s->g))) {
        puts("it is not your turn");
        return 0;
    }
    if (strcmp(cmd, "ok") == 0)
        play_selection(s);
    else
        handle_choice(s, cmd);

    /* Show the new position after a decision, or the next choices. */
    changed_position = ball_history_length(s->g) != before;
    if (changed_position)
        show(s);
    else if (s->n_chosen > 0)
        show_choices(s, 0);
    return 0;
}

static void usage(FILE *out)
{
    fputs("usage: play [--atk PLAYER] [--def PLAYER]\n"
          "            [--seed N] [--turn-limit N] [--depth-zone N] [--bpn BPN | --load FILE]\n"
          "  PLAYER: human, " PLAYER_NAMES_HELP "\n",
          out);
}

int main(int argc, char **argv)
{
    struct session s;
    const char *names[2] = {"greedy", "human"}; /* ATK, DEF */
    const char *bpn = NULL, *load_path = NULL;
    long seed = 0;
    ball_rules rules;
    char line[1024], err[256];
    int rc;

    memset(&s, 0, sizeof s);
    ball_rules_init(&rules, sizeof rules);
    for (int i = 1; i < argc; i++) {
        const char *opt = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(opt, "--help") == 0) {
            usage(stdout);
            return 0;
        }
        if (val == NULL || strncmp(opt, "--", 2) != 0) {
            usage(stderr);
            return 2;
        }
        i++;
        long v = 0;
        if (strcmp(opt, "--atk") == 0)
            names[BALL_ATK] = val;
        else if (strcmp(opt, "--def") == 0)
            names[BALL_DEF] = val;
        else if (strcmp(opt, "--seed") == 0)
            v = seed = parse_number(val, 0, 4294967295L);
        else if (strcmp(opt, "--turn-limit") == 0)
            rules.turn_limit = (unsigned)(v = parse_number(val, 0, BALL_MAX_TURN));
        else if (strcmp(opt, "--depth-zone") == 0)
            rules.end_zone_depth = (int)(v = parse_number(val, 0, INT_MAX));
        else if (strcmp(opt, "--bpn") == 0)
            bpn = val;
        else if (strcmp(opt, "--load") == 0)
            load_path = val;
        else {
            fprintf(stderr, "play: unknown option '%s'\n", opt);
            usage(stderr);
            return 2;
        }
        if (v < 0) {
            fprintf(stderr, "play: bad value '%s' for %s: expected a non-negative integer\n", val, opt);
            return 2;
        }
    }
    for (int team = 0; team < 2; team++) {
        if (player_parse(names[team], 1, (uint32_t)seed + (uint32_t)team, &s.players[team]) != 0) {
            fprintf(stderr, "play: unknown player '%s' (human, %s)\n", names[team], PLAYER_NAMES_HELP);
            return 2;
        }
    }
    rc = ball_game_new(&s.g, &rules, err, sizeof err);
    if (rc != BALL_OK) {
        fprintf(stderr, "play: cannot create a game: %s\n", *err ? err : ball_strerror(rc));
        return 2;
    }
    if (bpn && ball_position_from_text(s.g, bpn) != BALL_OK) {
        fprintf(stderr, "play: bad BPN: %s\n", ball_errmsg(s.g));
        ball_game_free(s.g);
        return 2;
    }
    if (load_path && load(&s, load_path) != 0) {
        ball_game_free(s.g);
        return 2;
    }
    s.echo = !isatty(fileno(stdin));

    printf("BALL: ATK = %s, DEF = %s. Type help for the commands.\n",
           player_name(&s.players[BALL_ATK]), player_name(&s.players[BALL_DEF]));
    board_print_legend(stdout);
    show(&s);
    for (;;) {
        int side = ball_side(s.g);
        if (ball_result(s.g) == BALL_ONGOING && !is_human(&s, side)) {
            if (bot_turn(&s) != BALL_OK)
                break;
            show(&s);
            continue;
        }
        if (ball_result(s.g) == BALL_ONGOING) {
            printf("%s> ", team_name(side));
        } else {
            printf("game over> ");
        }
        fflush(stdout);
        if (fgets(line, sizeof line, stdin) == NULL) {
            putchar('\n');
            break;
        }
        if (s.echo)
            fputs(line[0] == '\033' ? "ESC\n" : line, stdout);
        if (strchr(line, '\n') == NULL && !feof(stdin)) {
            int c;
            while ((c = getchar()) != EOF && c != '\n')
                ; /* drop the rest of an over-long line */
            puts("line too long");
            continue;
        }
        if (handle_line(&s, line))
            break;
    }
    puts("bye");
    ball_game_free(s.g);
    return 0;
}
