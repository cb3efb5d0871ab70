/* A plain main() for the fuzz targets: feeds every regular file of the
 * folders (or files) given as arguments to LLVMFuzzerTestOneInput(), in
 * name order, so that any compiler can build a target as a corpus-replay
 * program (`make fuzz-replay`, run by `make check`).
 *
 *   fuzz_bpn tests/fuzz/corpus/bpn [more folders or files...]
 *
 * Prints one line per folder and a total; exits 0 when every input ran
 * (a failed check aborts the program, naming the input on stderr). */
#define _POSIX_C_SOURCE 200809L

#include <dirent.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#if defined(__SANITIZE_ADDRESS__)
#define REPLAY_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define REPLAY_ASAN 1
#endif
#endif
#ifdef REPLAY_ASAN
#include <sanitizer/common_interface_defs.h>
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The input being run, for the crash message. */
static char current[4096];

static void on_crash(int sig)
{
    /* Only async-signal-safe calls here. */
    static const char msg[] = "\n*** replay: crashed on input ";
    ssize_t rc = write(2, msg, sizeof msg - 1);
    rc = write(2, current, strlen(current));
    rc = write(2, "\n", 1);
    (void)rc;
    signal(sig, SIG_DFL);
    raise(sig);
}

#ifdef REPLAY_ASAN
static void on_sanitizer_death(void)
{
    fprintf(stderr, "\n*** replay: sanitizer error on input %s\n", current);
}
#endif

static int run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        return -1;
    }
    size_t cap = 4096, len = 0;
    uint8_t *buf = malloc(cap);
    if (!buf) {
        fclose(f);
        return -1;
    }
    for (;;) {
        size_t got = fread(buf + len, 1, cap - len, f);
        len += got;
        if (len < cap)
            break;
        uint8_t *bigger = realloc(buf, cap * 2);
        if (!bigger) {
            free(buf);
            fclose(f);
            return -1;
        }
        buf = bigger;
        cap *= 2;
    }
    int err = ferror(f);
    fclose(f);
    if (err) {
        fprintf(stderr, "%s: read error\n", path);
        free(buf);
        return -1;
    }
    snprintf(current, sizeof current, "%s", path);
    if (getenv("FUZZ_REPLAY_VERBOSE"))
        fprintf(stderr, "replay: %s (%zu bytes)\n", path, len);
    /* libFuzzer hands over an exactly sized copy: do the same, so that
     * ASan catches any read past the end. */
    uint8_t *exact = malloc(len ? len : 1);
    if (!exact) {
        free(buf);
        return -1;
    }
    memcpy(exact, buf, len);
    free(buf);
    LLVMFuzzerTestOneInput(exact, len);
    free(exact);
    return 0;
}

static int cmp_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Runs the regular files of a folder in name order; returns their number
 * or -1. */
static long run_dir(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d) {
        perror(dir);
        return -1;
    }
    size_t n = 0, cap = 64;
    char **names = malloc(cap * sizeof *names);
    struct dirent *e;
    while (names && (e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        if (n == cap) {
            char **more = realloc(names, 2 * cap * sizeof *names);
            if (!more)
                break;
            names = more;
            cap *= 2;
        }
        size_t len = strlen(dir) + strlen(e->d_name) + 2;
        names[n] = malloc(len);
        if (!names[n])
            break;
        snprintf(names[n], len, "%s/%s", dir, e->d_name);
        n++;
    }
    closedir(d);
    if (!names)
        return -1;
    qsort(names, n, sizeof *names, cmp_names);
    long ran = 0;
    for (size_t i = 0; i < n; i++) {
        struct stat st;
        if (stat(names[i], &st) == 0 && S_ISREG(st.st_mode)) {
            if (run_file(names[i]) < 0)
                ran = -1;
            else if (ran >= 0)
                ran++;
        }
        free(names[i]);
    }
    free(names);
    return ran;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s CORPUS_DIR_OR_FILE...\n", argv[0]);
        return 2;
    }
    signal(SIGABRT, on_crash);
#ifdef REPLAY_ASAN
    /* The sanitizer reports faults itself; it calls us back before dying. */
    __sanitizer_set_death_callback(on_sanitizer_death);
#else
    signal(SIGSEGV, on_crash);
    signal(SIGBUS, on_crash);
    signal(SIGFPE, on_crash);
    signal(SIGILL, on_crash);
#endif
    long total = 0;
    int failed = 0;
    for (int i = 1; i < argc; i++) {
        struct stat st;
        long ran;
        if (stat(argv[i], &st) != 0) {
            perror(argv[i]);
            failed = 1;
            continue;
        }
        if (S_ISDIR(st.st_mode))
            ran = run_dir(argv[i]);
        else
            ran = run_file(argv[i]) < 0 ? -1 : 1;
        if (ran < 0) {
            failed = 1;
            continue;
        }
        printf("%s: %ld inputs\n", argv[i], ran);
        total += ran;
    }
    printf("replayed %ld inputs%s\n", total, failed ? " (some could not be read)" : "");
    return failed;
}
