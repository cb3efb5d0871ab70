/* SPDX-License-Identifier: MIT */
/* How the engine asks the compiler to inline a function or to keep it out
 * of line (GCC and clang; other compilers decide alone). */
#ifndef BALL_COMPILER_H
#define BALL_COMPILER_H

/* HOT: inlined into every caller, so that each copy keeps only the code
 * its constant arguments need (the generator's modes, the draw's one-task
 * path). Coverage builds define BALL_NO_FORCE_INLINE to leave the choice
 * to the compiler (at -O0 it then inlines nothing, and every line counts
 * on its own). */
#if defined(__GNUC__) && !defined(BALL_NO_FORCE_INLINE)
#define HOT static inline __attribute__((always_inline))
#else
#define HOT static inline
#endif

/* OUT_OF_LINE: kept out of its callers, the slow paths, so that the quick
 * ones that call them save no registers and set up no large frame. */
#if defined(__GNUC__)
#define OUT_OF_LINE __attribute__((noinline))
#else
#define OUT_OF_LINE
#endif

/* UNIT_LOCAL: a static function written in a header for the units that
 * include it (libball/search/: the alpha-beta's table, ordering and
 * evaluation), compiled in each as if written there, so that the compiler
 * inlines it as it would in one file; a unit that includes the header for
 * something else leaves it unused without a warning. */
#if defined(__GNUC__)
#define UNIT_LOCAL static __attribute__((unused))
#else
#define UNIT_LOCAL static
#endif

#endif
