/* SPDX-License-Identifier: MIT */
/* Shape of encoded actions (see action.h). */
#include "action.h"
#include "position.h"

static int sq_ok(int sq) { return sq >= 0 && sq < NSQ; }

int act_well_formed(uint32_t a)
{
    int kind = act_kind(a), from = act_from(a), to = act_to(a), opt = act_opt(a);
    int keeper = act_keeper(a), flags = act_flags(a);
    int allowed_flags = 0, has_opt = 0;
    if (a >> 30 || kind < K_MOVE || kind > K_LAST)
        return 0;
    if (kind == K_END)
        return from < 0 && to < 0 && opt < 0 && keeper == 0 && flags == 0;
    if (kind == K_CONVERT) /* pe+k: k PA, at most 2 + 9 cards x 9 PA */
        return from < 0 && act_value(a) >= 1 && act_value(a) <= 99 && opt < 0 && keeper == 0 && flags == 0;
    if (kind == K_CARD)
        return (from < 0 || sq_ok(from)) && act_value(a) < HAND_MAX && opt < 0 && keeper == 0 && flags == 0;
    switch (kind) {
    case K_MOVE: allowed_flags = F_PICKUP; break;
    case K_DODGE: allowed_flags = F_PICKUP | F_FORCED_FUMBLE; has_opt = 1; break;
    case K_TACTICAL: allowed_flags = F_PICKUP | F_FUMBLE; has_opt = 1; break;
    case K_UNBLOCK:
    case K_UNPROTECT: has_opt = 1; break;
    default: break;
    }
    if (keeper == 3 || (keeper && kind != K_UNBLOCK && kind != K_UNPROTECT))
        return 0;
    if ((flags & ~allowed_flags) || !sq_ok(from) || !sq_ok(to))
        return 0;
    return has_opt ? sq_ok(opt) : opt < 0;
}
