/* SPDX-License-Identifier: MIT */
/* Compiled into the WebAssembly build only (mk/web.mk): the address of
 * ball_net_search_eval() for the JavaScript binding's TurnSearch
 * ({ eval: net }, bindings/js/libball.mjs), which passes it to
 * ball_search_set_eval() as C code would.
 *
 * In wasm a function pointer is an index into the module's function table,
 * and the JavaScript export `_ball_net_search_eval` is a JavaScript
 * function (emscripten's wrapper), not that index. Taking the address here
 * makes the linker put the function in the table and gives its index:
 * the search then calls the C function directly at each leaf, with no
 * JavaScript in between, and no table growth (-sALLOW_TABLE_GROWTH,
 * addFunction()) or emscripten internals (Module.asm, wasmExports) are
 * needed. */
#define BALL_EXPERIMENTAL

#include "ball.h"

__attribute__((visibility("default"))) ball_search_eval_fn libball_js_net_search_eval(void);

ball_search_eval_fn libball_js_net_search_eval(void)
{
    return ball_net_search_eval;
}
