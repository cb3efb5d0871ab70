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

#endif
