/* SPDX-License-Identifier: MIT */
/* The network the turn search evaluates with unless told otherwise
 * (ball_search_config::eval, ball.h): the bytes of share/net/nnue.net,
 * a file of docs/network-format.md, in the library's read-only data.
 * default_net.c is generated from that file by scripts/net-embed.py and
 * checked against it by tests/meta/embedded_net_test.sh. */
#ifndef BALL_DEFAULT_NET_H
#define BALL_DEFAULT_NET_H

#include <stddef.h>

extern const size_t nnue_default_net_len;
extern const unsigned char nnue_default_net[];

#endif
