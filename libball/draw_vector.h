/* SPDX-License-Identifier: MIT */
/* The counting half of the vector draw (movegen.c), written once and
 * included there once per instruction set, so that each copy is compiled
 * for its own CPU and picked at run time (draw_for_cpu()). No include
 * guard: movegen.c defines before each inclusion
 *   VEC(name)   the name of each function for this instruction set
 *               (name_avx2, name_avx512);
 *   VEC_HOT     how its small functions are declared (always inline, with
 *               the instruction set as target);
 *   VEC_ENTRY   the target of its entry point;
 *   VEC_AVX512  1 for AVX-512 (with VL, VPOPCNTDQ and VBMI2), 0 for AVX2.
 * The two differ in three primitives only: how a pair of bitboards is
 * shifted (AVX-512's funnel shifts carry the bits between 64-bit lanes in
 * one instruction instead of three), how bits are counted (AVX2 counts per
 * byte with a table and sums the bytes once per pair of directions;
 * AVX-512 counts per 64-bit lane in one instruction) and how counts are
 * added (per byte or per lane). Everything else, and so every draw, is
 * the same: tests/rules/test_random_draw.c checks each copy the CPU can run
 * against the other draws. */

/* bb_shift() of the first bitboard by a and of the second by b (a and b
 * of the same sign), the bits that cross from one 64-bit half to the
 * other carried over. */
VEC_HOT bb_pair VEC(shift_by)(bb_pair x, long long a, long long b)
{
#if VEC_AVX512
    if (a > 0) /* each lane's upper bits from the lane below (zero for the first) */
        return _mm256_shldv_epi64(x, _mm256_slli_si256(x, 8), _mm256_setr_epi64x(a, a, b, b));
    return _mm256_shrdv_epi64(x, _mm256_srli_si256(x, 8), _mm256_setr_epi64x(-a, -a, -b, -b));
#else
    if (a > 0) { /* toward higher bits: the lower half's top bits go up */
        bb_pair by = _mm256_setr_epi64x(a, a, b, b), back = _mm256_setr_epi64x(64 - a, 64 - a, 64 - b, 64 - b);
        return _mm256_or_si256(_mm256_sllv_epi64(x, by), _mm256_srlv_epi64(_mm256_slli_si256(x, 8), back));
    }
    bb_pair by = _mm256_setr_epi64x(-a, -a, -b, -b), back = _mm256_setr_epi64x(64 + a, 64 + a, 64 + b, 64 + b);
    return _mm256_or_si256(_mm256_srlv_epi64(x, by), _mm256_sllv_epi64(_mm256_srli_si256(x, 8), back));
#endif
}

/* The first bitboard one step in direction dir, the second in dir + 1. */
VEC_HOT bb_pair VEC(shift)(bb_pair x, int dir)
{
    return VEC(shift_by)(x, DIRECTION_BIT[dir], DIRECTION_BIT[dir + 1]);
}

/* The set bits of x, counted in the unit of this instruction set: per
 * byte (AVX2, no popcount: a 16-entry table for each half byte, the half
 * bytes cut out with v->low_nibbles) or per 64-bit lane (AVX-512). */
VEC_HOT bb_pair VEC(counts)(const gen_pairs *v, bb_pair x)
{
#if VEC_AVX512
    (void)v;
    return _mm256_popcnt_epi64(x);
#else
    const bb_pair bits = _mm256_setr_epi8(0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4,
                                          0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4);
    const bb_pair low = v->low_nibbles;
    return _mm256_add_epi8(_mm256_shuffle_epi8(bits, _mm256_and_si256(x, low)),
                           _mm256_shuffle_epi8(bits, _mm256_and_si256(_mm256_srli_epi16(x, 4), low)));
#endif
}

/* Two results of counts() added: per byte, at most 81 in one (a pair of
 * directions' decisions), or per lane. */
VEC_HOT bb_pair VEC(add)(bb_pair a, bb_pair b)
{
#if VEC_AVX512
    return _mm256_add_epi64(a, b);
#else
    return _mm256_add_epi8(a, b);
#endif
}

/* counts() summed per 64-bit lane, a bitboard half each. */
VEC_HOT bb_pair VEC(lane_sums)(bb_pair n)
{
#if VEC_AVX512
    return n;
#else
    return _mm256_sad_epu8(n, _mm256_setzero_si256());
#endif
}

/* near[] (near_open or near_vacant of gen_pairs) for the squares of
 * `squares` (open or vacant), made the first time one is needed. */
VEC_HOT const bb_pair *VEC(near)(bb_pair *near, int *made, bb_pair squares)
{
    if (!*made) {
        near[0] = VEC(shift_by)(squares, -BIT_DOWN_LEFT, -BIT_DOWN_RIGHT);
        near[1] = VEC(shift_by)(squares, -BIT_UP_LEFT, -BIT_UP_RIGHT);
        *made = 1;
    }
    return near;
}

/* counts(), for each bitboard of x, of its squares' diagonal neighbours
 * in near[] (near_open or near_vacant). Each half of x is matched with
 * each half of near[0] and near[1]: x as it is, then with its halves
 * swapped, whose counts are swapped back. */
VEC_HOT bb_pair VEC(near_counts)(const gen_pairs *v, bb_pair x, const bb_pair *near)
{
    bb_pair swapped = _mm256_permute2x128_si256(x, x, 0x01);
    bb_pair same = VEC(add)(VEC(counts)(v, pair_and(x, near[0])), VEC(counts)(v, pair_and(x, near[1])));
    bb_pair other = VEC(add)(VEC(counts)(v, pair_and(swapped, near[0])), VEC(counts)(v, pair_and(swapped, near[1])));
    return VEC(add)(same, _mm256_permute2x128_si256(other, other, 0x01));
}

/* R6.1: the dodges onto the opponents of `targets` (two directions), one
 * per open exit: counts(). */
VEC_HOT bb_pair VEC(dodge_counts)(gen_pairs *v, bb_pair targets)
{
    return VEC(near_counts)(v, targets, VEC(near)(v->near_open, &v->near_open_made, v->open));
}

/* R6.2: the tactical dodges over the opponents of `middles` onto
 * `landings` (directions dir and dir + 1, both down or both up), one per
 * push square: the square left, always (Clarifications), and each of the
 * middle's two neighbours across the line of the move that is vacant;
 * never the landing. counts(). Across a move down-left lie the
 * down-right and up-left neighbours, across one down-right the
 * down-left and up-right ones, and so on. */
VEC_HOT bb_pair VEC(tactical_counts)(gen_pairs *v, bb_pair middles, bb_pair landings, int dir)
{
    const bb_pair *near = VEC(near)(v->near_vacant, &v->near_vacant_made, v->vacant);
    bb_pair down = near[0], up = near[1]; /* [down-left | down-right], [up-left | up-right] */
    if (dir == 0)
        down = _mm256_permute2x128_si256(down, down, 0x01); /* [down-right | down-left], with [up-left | up-right] */
    else
        up = _mm256_permute2x128_si256(up, up, 0x01); /* [down-left | down-right] with [up-right | up-left] */
    return VEC(add)(VEC(counts)(v, landings),
                    VEC(add)(VEC(counts)(v, pair_and(middles, down)), VEC(counts)(v, pair_and(middles, up))));
}

/* Diagonal directions dir and dir + 1, as count_diagonal() has them:
 * their squares into d, their decisions counted. */
VEC_HOT bb_pair VEC(count_diagonal_pair)(gen_pairs *v, directions *d, int dir)
{
    bb_pair steps = pair_and(VEC(shift)(v->movers, dir), v->steppable);
    bb_pair middle = VEC(shift)(v->diagonal_jumpers, dir);
    bb_pair ends = VEC(shift)(pair_and(middle, v->passable), dir);
    bb_pair n = VEC(add)(VEC(counts)(v, steps), VEC(counts)(v, pair_and(ends, v->open)));
    bb_pair over = _mm256_setzero_si256();
    pair_store(&d->steps[dir], steps);
    pair_store(&d->ends[dir], ends);
    if (pair_meet(ends, v->foes))
        n = VEC(add)(n, VEC(dodge_counts)(v, pair_and(ends, v->foes)));
    if (pair_meet(middle, v->foes)) {
        over = pair_and(VEC(shift)(pair_and(middle, v->foes), dir), v->open);
        bb_pair middles = VEC(shift_by)(over, -DIRECTION_BIT[dir], -DIRECTION_BIT[dir + 1]);
        n = VEC(add)(n, VEC(tactical_counts)(v, middles, over, dir));
    }
    pair_store(&d->over[dir], over);
    return n;
}

/* Orthogonal directions dir and dir + 1, as count_orthogonal() has them. */
VEC_HOT bb_pair VEC(count_orthogonal_pair)(gen_pairs *v, directions *d, int dir)
{
    bb_pair ends = VEC(shift)(v->orthogonal_jumpers, dir);
    bb_pair n = VEC(counts)(v, pair_and(ends, v->open));
    pair_store(&d->ends[dir], ends);
    if (pair_meet(ends, v->foes))
        n = VEC(add)(n, VEC(dodge_counts)(v, pair_and(ends, v->foes)));
    return n;
}

/* The eight groups counted: their squares into d, the number of
 * decisions up to each into marks[0-7]. */
VEC_HOT void VEC(count_directions)(gen_pairs *v, directions *d, int *marks)
{
    bb_pair c01 = VEC(lane_sums)(VEC(count_diagonal_pair)(v, d, 0));
    bb_pair c23 = VEC(lane_sums)(VEC(count_diagonal_pair)(v, d, 2));
    bb_pair c45 = VEC(lane_sums)(VEC(count_orthogonal_pair)(v, d, 4));
    bb_pair c67 = VEC(lane_sums)(VEC(count_orthogonal_pair)(v, d, 6));
    running_totals(c01, c23, c45, c67, marks);
}

/* draw_action_phase() with the pieces' groups counted two directions at
 * a time, and the drawn one found from the squares kept. A function of
 * its own: its instructions may run only once the CPU is known to have
 * them (draw_for_cpu()). */
static VEC_ENTRY __attribute__((noinline)) int VEC(draw_action_phase)(const pos *p, uint64_t random, uint32_t *action)
{
    gen g;
    gen_pairs v;
    gen_setup_pairs(&g, &v, p);
    directions d;
    int marks[GROUPS];
    if (pair_meet(v.movers, v.movers))
        VEC(count_directions)(&v, &d, marks);
    else
        _mm256_storeu_si256((__m256i *)marks, _mm256_setzero_si256());
    *action = draw_from_marks(&g, &d, marks, random);
    return 1;
}
