/* Helpers shared by the benchmark programs (bench.c, ab.c). */
#ifndef BALL_BENCH_UTIL_H
#define BALL_BENCH_UTIL_H

#include <stdint.h>
#include <time.h>

/* Seconds on a monotonic clock (wall time). */
static inline double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* CPU seconds used by this process: beside the wall time, it shows how
 * much of a run the machine gave to it (a loaded or throttled machine
 * stretches wall time, not CPU time). */
static inline double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* xorshift64: the seeded random numbers of the workloads. */
static inline uint64_t next_random(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* qsort() order of doubles. */
static inline int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

#endif
