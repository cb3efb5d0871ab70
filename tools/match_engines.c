/* SPDX-License-Identifier: MIT */
/* Engines as child processes of `ball match`: started, talked to, timed
 * and killed; see match.h. */
#define _POSIX_C_SOURCE 200809L

#include "match.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif
#include <time.h>
#include <unistd.h>

/* The process groups of the running engines, for the signal handler: an
 * interrupted match (SIGINT, SIGTERM, SIGHUP) kills them before it ends.
 * Each slot is written by the one worker that owns it. (The tool's own
 * state, not the library's.) */
#define MAX_CHILDREN 128
static volatile pid_t children[MAX_CHILDREN];

/* Held while an engine is started (fork to children[]) and while the
 * orphans are swept, so that a sweep never takes an engine being started
 * for an orphan. */
static pthread_mutex_t spawn_lock = PTHREAD_MUTEX_INITIALIZER;

void on_signal(int sig)
{
    for (int i = 0; i < MAX_CHILDREN; i++)
        if (children[i] > 0)
            kill(-children[i], SIGKILL);
    signal(sig, SIG_DFL);
    raise(sig);
}

void engines_init(void)
{
#ifdef __linux__
    /* The match adopts what its engines leave behind (a grandchild made
     * session leader by setsid escapes the engine's process group), so
     * that reap_orphans() can end it. */
    prctl(PR_SET_CHILD_SUBREAPER, 1);
#endif
    signal(SIGPIPE, SIG_IGN);
    signal(SIGINT, on_signal);
    signal(SIGTERM, on_signal);
    signal(SIGHUP, on_signal);
}

#ifdef __linux__
/* The parent of process @p pid (/proc/PID/stat), or -1. */
static pid_t parent_of(pid_t pid)
{
    char path[64], buf[512];
    snprintf(path, sizeof path, "/proc/%ld/stat", (long)pid);
    FILE *f = fopen(path, "r");
    size_t n = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
    if (f)
        fclose(f);
    buf[n] = '\0';
    char *end = strrchr(buf, ')'); /* after the command's name, which may hold anything */
    long ppid = -1;
    if (end == NULL || sscanf(end + 1, " %*c %ld", &ppid) != 1)
        return -1;
    return (pid_t)ppid;
}

static int is_engine(pid_t pid)
{
    for (int i = 0; i < MAX_CHILDREN; i++)
        if (children[i] == pid)
            return 1;
    return 0;
}

/* One sweep of /proc: kills and reaps each child that is no engine; their
 * number. */
static int sweep_orphans(void)
{
    DIR *d = opendir("/proc");
    struct dirent *de;
    int found = 0;
    while (d != NULL && (de = readdir(d)) != NULL) {
        pid_t pid = (pid_t)atol(de->d_name);
        if (pid <= 0 || parent_of(pid) != getpid() || is_engine(pid))
            continue;
        kill(-pid, SIGKILL); /* its own group, when it made one */
        kill(pid, SIGKILL);
        waitpid(pid, NULL, 0);
        found++;
    }
    if (d != NULL)
        closedir(d);
    return found;
}
#endif

void reap_orphans(void)
{
#ifdef __linux__
    /* each orphan ended may leave children of its own, adopted in turn */
    pthread_mutex_lock(&spawn_lock);
    for (int round = 0; round < 16 && sweep_orphans() > 0; round++)
        continue;
    pthread_mutex_unlock(&spawn_lock);
#endif
}

/* ---------------------------------------------------------------- time */

double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

/* ---------------------------------------------------------------- processes */

static void proc_kill(struct proc *p)
{
    if (p->pid <= 0)
        return;
    kill(-p->pid, SIGKILL);
    kill(p->pid, SIGKILL);
    waitpid(p->pid, NULL, 0);
    children[p->slot] = 0;
    close(p->in);
    close(p->out);
    close(p->err);
    p->pid = 0;
    reap_orphans();
}

static int proc_start(struct proc *p, const char *cmd, char *why, size_t whylen)
{
    int in[2], out[2], err[2], slot = p->slot;
    memset(p, 0, sizeof *p);
    p->slot = slot;
    if (pipe(in) < 0 || pipe(out) < 0 || pipe(err) < 0) {
        snprintf(why, whylen, "cannot start: %s", strerror(errno));
        return -1;
    }
    pthread_mutex_lock(&spawn_lock);
    pid_t pid = fork();
    if (pid < 0) {
        pthread_mutex_unlock(&spawn_lock);
        snprintf(why, whylen, "cannot start: %s", strerror(errno));
        close(in[0]), close(in[1]), close(out[0]), close(out[1]), close(err[0]), close(err[1]);
        return -1;
    }
    if (pid == 0) {
        setpgid(0, 0);
        dup2(in[0], 0);
        dup2(out[1], 1);
        dup2(err[1], 2);
        close(in[0]), close(in[1]), close(out[0]), close(out[1]), close(err[0]), close(err[1]);
        signal(SIGPIPE, SIG_DFL);
        execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
        _exit(127);
    }
    setpgid(pid, pid); /* also here: no race with the kill of the group */
    children[slot] = pid;
    pthread_mutex_unlock(&spawn_lock);
    close(in[0]);
    close(out[1]);
    close(err[1]);
    fcntl(in[1], F_SETFD, FD_CLOEXEC);
    fcntl(out[0], F_SETFD, FD_CLOEXEC);
    fcntl(err[0], F_SETFD, FD_CLOEXEC);
    p->pid = pid;
    p->in = in[1];
    p->out = out[0];
    p->err = err[0];
    return 0;
}

/* Appends @p n bytes of an engine's stderr to the tail kept of it, a ring
 * of the last sizeof errtail bytes (a flood of stderr costs one store a
 * byte), control characters as spaces. */
static void errtail_add(struct proc *p, const char *buf, ssize_t n)
{
    for (ssize_t i = 0; i < n; i++) {
        p->errtail[p->errpos] = buf[i] == '\n' || (unsigned char)buf[i] < 0x20 ? ' ' : buf[i];
        p->errpos = (p->errpos + 1) % sizeof p->errtail;
        if (p->errlen < sizeof p->errtail)
            p->errlen++;
    }
}

/* ": " and the last 60 bytes of the stderr kept (trailing blanks
 * dropped), or "" when it wrote none. */
static void errtail_text(const struct proc *p, char *out, size_t len)
{
    char tail[sizeof p->errtail];
    size_t n = p->errlen, start = (p->errpos + sizeof p->errtail - n) % sizeof p->errtail;
    for (size_t i = 0; i < n; i++)
        tail[i] = p->errtail[(start + i) % sizeof p->errtail];
    while (n > 0 && tail[n - 1] == ' ')
        n--;
    size_t from = n > 60 ? n - 60 : 0;
    snprintf(out, len, "%s%.*s", n ? ": " : "", (int)(n - from), tail + from);
}

/* Reads what is left of the stderr of an engine that has ended (or closed
 * its output): at most 1 MiB, so that one that floods it on cannot hold
 * the match. */
static void drain_stderr(struct proc *p)
{
    for (size_t total = 0; total < (1u << 20);) {
        struct pollfd pf = {p->err, POLLIN, 0};
        char tmp[4096];
        if (poll(&pf, 1, 0) <= 0)
            break;
        ssize_t n = read(p->err, tmp, sizeof tmp);
        if (n <= 0)
            break;
        errtail_add(p, tmp, n);
        total += (size_t)n;
    }
}

/* Why the process ended (after its output closed): "crashed (exit status
 * 3: <the end of its stderr>)". */
void proc_death(struct proc *p, char *why, size_t whylen)
{
    int status = 0;
    pid_t r = 0;
    double until = now_ms() + 1000;
    while ((r = waitpid(p->pid, &status, WNOHANG)) == 0 && now_ms() < until) {
        struct timespec d = {0, 5000000};
        nanosleep(&d, NULL);
    }
    drain_stderr(p);
    char tail[100];
    errtail_text(p, tail, sizeof tail);
    if (r == p->pid && WIFEXITED(status))
        snprintf(why, whylen, "crashed (exit status %d%s)", WEXITSTATUS(status), tail);
    else if (r == p->pid && WIFSIGNALED(status))
        snprintf(why, whylen, "crashed (signal %d%s)", WTERMSIG(status), tail);
    else
        snprintf(why, whylen, "closed its output%s", tail);
    if (r == p->pid) {
        children[p->slot] = 0;
        p->pid = -p->pid; /* reaped; proc_kill must not wait again */
    }
}

void proc_close(struct proc *p)
{
    if (p->pid < 0) {
        close(p->in);
        close(p->out);
        close(p->err);
        p->pid = 0;
        reap_orphans();
        return;
    }
    proc_kill(p);
}

int proc_send(struct proc *p, const char *line)
{
    size_t n = strlen(line);
    char nl = '\n';
    while (n > 0) {
        ssize_t k = write(p->in, line, n);
        if (k < 0) {
            if (errno == EINTR)
                continue;
            return -1;
        }
        line += k;
        n -= (size_t)k;
    }
    return write(p->in, &nl, 1) == 1 ? 0 : -1;
}

/* Reads one line into @p line before @p deadline (ms, now_ms()). Returns 0;
 * -1 timeout; -2 end of output. */
int proc_readline(struct proc *p, char *line, size_t cap, double deadline)
{
    for (;;) {
        char *nl = memchr(p->buf, '\n', p->len);
        if (nl != NULL) {
            size_t n = (size_t)(nl - p->buf);
            size_t k = n < cap - 1 ? n : cap - 1;
            memcpy(line, p->buf, k);
            line[k] = '\0';
            if (k > 0 && line[k - 1] == '\r')
                line[k - 1] = '\0';
            if (strncmp(line, "info string error: ", 19) == 0)
                snprintf(p->said, sizeof p->said, "%s", line + 19);
            memmove(p->buf, nl + 1, p->len - n - 1);
            p->len -= n + 1;
            return 0;
        }
        if (p->len == sizeof p->buf) /* a line too long: cut */
            p->len = 0;
        if (p->out_eof)
            return -2;
        double left = deadline - now_ms();
        if (left <= 0)
            return -1;
        struct pollfd pf[2] = {{p->out, POLLIN, 0}, {p->err_eof ? -1 : p->err, POLLIN, 0}};
        int r = poll(pf, 2, left > 1e6 ? 1000000 : (int)left + 1);
        if (r < 0 && errno != EINTR)
            return -2;
        if (r <= 0)
            continue;
        if (pf[1].revents) {
            char tmp[4096];
            ssize_t n = read(p->err, tmp, sizeof tmp);
            errtail_add(p, tmp, n);
            if (n <= 0)
                p->err_eof = 1;
        }
        if (pf[0].revents) {
            ssize_t n = read(p->out, p->buf + p->len, sizeof p->buf - p->len);
            if (n <= 0)
                p->out_eof = 1;
            else
                p->len += (size_t)n;
        }
    }
}

/* Waits for a line equal to @p want; 0, or -1 with the reason. */
static int proc_expect(struct proc *p, const char *want, double deadline, const char *what,
                       char *why, size_t whylen)
{
    char line[8192];
    for (;;) {
        int r = proc_readline(p, line, sizeof line, deadline);
        if (r == -1) {
            snprintf(why, whylen, "hung (no %s after %s)", want, what);
            return -1;
        }
        if (r == -2) {
            proc_death(p, why, whylen);
            return -1;
        }
        if (strcmp(line, want) == 0)
            return 0;
    }
}

/* ---------------------------------------------------------------- engines */

/* Starts the engine when it is not running: handshake, options, isready. */
static int player_ready(struct player *pl, long margin, char *why, size_t whylen)
{
    char line[1024];
    if (pl->proc.pid > 0)
        return 0;
    if (pl->proc.pid < 0)
        proc_close(&pl->proc);
    if (proc_start(&pl->proc, pl->spec->cmd, why, whylen) < 0)
        return -1;
    double deadline = now_ms() + (double)margin;
    if (proc_send(&pl->proc, "bep") < 0 ||
        proc_expect(&pl->proc, "bepok", deadline, "bep", why, whylen) < 0)
        goto fail;
    for (int i = 0; i < pl->spec->n_options; i++) {
        snprintf(line, sizeof line, "setoption name %s value %s", pl->spec->opt_name[i],
                 pl->spec->opt_value[i]);
        if (proc_send(&pl->proc, line) < 0)
            goto fail;
    }
    deadline = now_ms() + (double)margin;
    if (proc_send(&pl->proc, "isready") < 0 ||
        proc_expect(&pl->proc, "readyok", deadline, "isready", why, whylen) < 0)
        goto fail;
    return 0;
fail:
    if (!*why)
        snprintf(why, whylen, "closed its input");
    proc_close(&pl->proc);
    return -1;
}

int player_newgame(struct player *pl, long margin, char *why, size_t whylen)
{
    char line[2048];
    if (player_ready(pl, margin, why, whylen) < 0)
        return -1;
    snprintf(line, sizeof line, "newgame%s%s", *pl->rules_text ? " rules " : "", pl->rules_text);
    if (proc_send(&pl->proc, line) < 0 || proc_send(&pl->proc, "isready") < 0) {
        proc_death(&pl->proc, why, whylen);
        proc_close(&pl->proc);
        return -1;
    }
    if (proc_expect(&pl->proc, "readyok", now_ms() + (double)margin, "newgame", why, whylen) < 0) {
        proc_close(&pl->proc);
        return -1;
    }
    return 0;
}

void player_quit(struct player *pl)
{
    if (pl->proc.pid > 0) {
        proc_send(&pl->proc, "quit");
        double until = now_ms() + 500;
        while (now_ms() < until && waitpid(pl->proc.pid, NULL, WNOHANG) == 0) {
            struct timespec d = {0, 5000000};
            nanosleep(&d, NULL);
        }
        kill(-pl->proc.pid, SIGKILL);
        waitpid(pl->proc.pid, NULL, WNOHANG);
        children[pl->proc.slot] = 0;
        close(pl->proc.in);
        close(pl->proc.out);
        close(pl->proc.err);
        pl->proc.pid = 0;
    } else if (pl->proc.pid < 0) {
        proc_close(&pl->proc);
    }
}
