// SPDX-License-Identifier: MIT
// The page as a client of the game server (examples/server,
// docs/server.md "Playing from the page"): opened from an invitation link,
// BASE/?game=ID#token=TOKEN, it plays the token's seat; without a token
// (BASE/?game=ID) it watches. The server owns the game: this module sends
// the seat's decisions (the page checks them with libball first, for quick
// feedback; the server checks them again), applies every event the server
// broadcasts (the player's own decisions too, so that the page shows what
// the server accepted, nothing else), offers resign and draws, shows the
// clock and the end with a link to the record, and reconnects after a
// drop, resuming from the last event it saw (a reload reads the token from
// the fragment again and starts from the first event).
//
// The page's app.mjs hands it hooks: reset(rules) starts a new local game
// in that ruleset, apply(action) plays one decision into the page's game
// and history (returns the BPN after it), bpn() is the page's position,
// render() and say(text, kind).

const RECONNECT_MS = [250, 500, 1000, 2000, 4000];
// The answers to a hello that no reconnection can change.
const FATAL = { no_such_game: 'no such game on this server', bad_token: "this link's token holds no seat of this game" };
const OUTCOME_WORDS = { resign: 'by resignation', draw: 'draw agreed', time: 'on time' };
// The page's controls that change the game locally: hidden when online.
const LOCAL_ONLY = ['players', 'setup', 'new', 'undo', 'load', 'save', 'share', 'goto-start', 'back-turn',
  'forward-turn', 'continue', 'future'];

const other = (side) => (side === 'ATK' ? 'DEF' : 'ATK');
const winnerOf = (result) => (result === '1-0' ? 'ATK' : result === '0-1' ? 'DEF' : null);

/** What an outcome says, in words: "ATK wins by resignation (DEF resigned)". */
export function outcomeText(outcome, lastEvent) {
  const w = winnerOf(outcome.result);
  if (outcome.reason === 'game') // R11
    return w ? `${w} wins by a touchdown` : 'Draw: the turn limit is reached';
  const how = outcome.reason === 'resign' ? ` (${lastEvent?.side ?? other(w)} resigned)` :
    outcome.reason === 'time' ? ` (${lastEvent?.side ?? other(w)} ran out of time)` : '';
  if (!w)
    return `Draw, ${OUTCOME_WORDS[outcome.reason] ?? outcome.reason}`;
  return `${w} wins ${OUTCOME_WORDS[outcome.reason] ?? outcome.reason}${how}`;
}

/**
 * Starts the online game `gameId` (the seat of `token`, or watching when
 * it is null). Returns the controller app.mjs asks: canAct(game),
 * decide(actionText), render(game) (after the page's own drawing), and
 * the read-only `info` for the body's data attributes.
 */
export function startOnline({ gameId, token, hooks }) {
  const st = {
    side: undefined,   // 'ATK' | 'DEF' | null (watching) once welcomed
    seq: 0,            // the last event applied
    lastEvent: null,
    joined: false,     // the page's game is in step with the server's
    conn: 'connecting', // 'connected' | 'reconnecting' | 'failed'
    fatal: '',
    outcome: null,
    drawOffer: null,
    deadline: null,    // Unix seconds, the server's clock
    turnSeconds: 0,
    offset: 0,         // server time - local time, from the last live event
    pending: null,     // the message sent and not yet answered
    retry: 0,
    resyncs: 0,        // readings of the whole game in a row that did not get in step
    ws: null,
    ids: 0,
    confirmResign: 0,  // the Resign button asks once more (its timer)
    feed: '',          // the last event in words
    toAct: null,       // the side to act, for the clock
  };
  const $ = (id) => document.getElementById(id);
  document.body.classList.add('online');
  for (const id of LOCAL_ONLY) {
    const el = $(id);
    if (el)
      el.hidden = true;
  }
  // the local game's file buttons, their heading and note
  const files = $('save')?.closest('.row');
  for (const el of [files, files?.previousElementSibling, $('share-url'), document.querySelector('#panel .note')])
    el?.setAttribute('hidden', '');

  // the panel, above the page's own
  const box = document.createElement('section');
  box.id = 'online';
  box.setAttribute('aria-label', 'online game');
  box.innerHTML = '<div class="online-head"><span id="online-seat" class="chip"></span>' +
    '<span id="online-conn" aria-live="polite"></span><span id="online-clock"></span></div>' +
    '<p id="online-feed" aria-live="polite"></p>' +
    '<div class="row" id="online-actions">' +
    '<button id="resign" type="button" title="give the game up: the other side wins">Resign</button>' +
    '<button id="offer-draw" type="button" title="offer the other side a draw">Offer a draw</button>' +
    '<button id="accept-draw" type="button" hidden>Accept the draw</button>' +
    '<button id="decline-draw" type="button" hidden>Decline the draw</button></div>' +
    '<p id="online-end" hidden></p>' +
    '<p><a id="online-record" download>Download the game record</a></p>';
  $('panel').prepend(box);
  const record = $('online-record');
  record.href = new URL(`api/games/${encodeURIComponent(gameId)}/record`, location.href).href;
  record.setAttribute('download', `ball-${gameId}.txt`);

  const send = (obj) => {
    if (st.ws?.readyState !== WebSocket.OPEN)
      return false;
    st.ws.send(JSON.stringify(obj));
    return true;
  };
  const change = (type, extra = {}) => {
    if (st.pending || !st.joined || st.outcome || !st.side)
      return;
    const msg = { type, seq: st.seq + 1, id: `m${++st.ids}`, ...extra };
    if (send(msg)) {
      st.pending = msg;
      hooks.render();
    }
  };

  function connect() {
    const url = new URL('ws', location.href);
    url.protocol = location.protocol === 'https:' ? 'wss:' : 'ws:';
    url.search = '';
    url.hash = '';
    const ws = new WebSocket(url.href);
    st.ws = ws;
    ws.onopen = () => {
      const hello = { type: 'hello', game: gameId, last_seq: st.seq };
      if (token)
        hello.token = token;
      ws.send(JSON.stringify(hello));
    };
    ws.onmessage = (ev) => {
      let msg;
      try {
        msg = JSON.parse(ev.data);
      } catch {
        return;
      }
      if (ws === st.ws)
        onMessage(msg);
    };
    ws.onclose = () => {
      if (ws !== st.ws)
        return;
      st.ws = null;
      st.pending = null;
      if (st.fatal) {
        st.conn = 'failed';
      } else {
        st.conn = 'reconnecting';
        setTimeout(connect, RECONNECT_MS[Math.min(st.retry++, RECONNECT_MS.length - 1)]);
      }
      hooks.render();
    };
  }

  // Starts over from the first event (the page is out of step).
  function resync(why) {
    if (++st.resyncs > 2) {
      // the same again and again: this page's libball and the server's disagree
      st.fatal = `the page cannot follow the server's game (${why})`;
      hooks.say(`${st.fatal}: is the page of another libball version than the server?`, 'error');
    } else
      hooks.say(`Out of step with the server (${why}): reading the game again`, 'error');
    st.seq = 0;
    st.joined = false;
    st.ws?.close();
  }

  function applyEvent(e) {
    if (e.kind === 'decision') {
      let bpn = null;
      try {
        bpn = hooks.apply(e.action);
      } catch {
        // not a decision of the page's game: out of step
      }
      if (bpn !== e.bpn)
        return false;
      if (st.drawOffer && st.drawOffer !== e.side)
        st.drawOffer = null; // a decision of the side offered declines the offer
      st.feed = e.action === 'end' ? `${e.side} ended the action phase` : `${e.side} played ${e.action}`;
    } else if (e.kind === 'draw_offer') {
      st.drawOffer = e.side;
      st.feed = `${e.side} offers a draw`;
    } else if (e.kind === 'draw_decline') {
      st.drawOffer = null;
      st.feed = `${e.side} declined the draw`;
    } else if (e.kind === 'draw') {
      st.feed = `${e.side} accepted the draw`;
    } else if (e.kind === 'resign') {
      st.feed = `${e.side} resigned`;
    } else if (e.kind === 'time') {
      st.feed = `${e.side} ran out of time`;
    }
    if (e.outcome) {
      st.outcome = e.outcome;
      st.drawOffer = null;
    }
    st.seq = e.seq;
    st.lastEvent = e;
    return true;
  }

  function onMessage(msg) {
    if (msg.type === 'welcome') {
      const s = msg.state;
      st.side = msg.side;
      if (st.seq === 0)
        hooks.reset(s.rules);
      for (const e of msg.events)
        if (!applyEvent(e)) {
          resync(`event ${e.seq}`);
          return;
        }
      if (hooks.bpn() !== s.bpn || st.seq !== s.seq) {
        resync('the position');
        return;
      }
      st.outcome = s.outcome;
      st.drawOffer = s.draw_offer;
      st.deadline = s.deadline;
      st.turnSeconds = s.turn_seconds;
      st.joined = true;
      st.conn = 'connected';
      st.retry = 0;
      st.resyncs = 0;
      st.pending = null;
      hooks.render();
    } else if (msg.type === 'event') {
      const e = msg.event;
      if (!st.joined || e.seq <= st.seq)
        return;
      if (e.seq !== st.seq + 1) {
        st.joined = false;
        st.ws?.close(); // an event missed: resume from the last one applied
        return;
      }
      if (typeof e.ts === 'number')
        st.offset = e.ts - Date.now() / 1000;
      if (!applyEvent(e)) {
        resync(`event ${e.seq}`);
        return;
      }
      st.deadline = msg.deadline;
      if (st.pending?.seq === e.seq && e.side === st.side)
        st.pending = null;
      if (e.side !== st.side)
        hooks.say('');
      hooks.render();
    } else if (msg.type === 'ack') {
      if (st.pending && (msg.id === st.pending.id))
        st.pending = null;
      hooks.render();
    } else if (msg.type === 'error') {
      if (FATAL[msg.reason]) {
        st.fatal = FATAL[msg.reason];
        st.ws?.close();
        hooks.say(`${st.fatal}: ${msg.message}`, 'error');
      } else if (msg.reason === 'bad_last_seq') {
        resync(msg.message);
      } else {
        st.pending = null;
        hooks.say(`The server refused it: ${msg.message}`, 'error');
        if (msg.reason === 'stale_seq') {
          st.joined = false;
          st.ws?.close(); // the page missed something: resume
        }
      }
      hooks.render();
    }
  }

  $('resign').addEventListener('click', () => {
    if (!st.confirmResign) {
      st.confirmResign = setTimeout(() => {
        st.confirmResign = 0;
        hooks.render();
      }, 4000);
      hooks.render();
      return;
    }
    clearTimeout(st.confirmResign);
    st.confirmResign = 0;
    change('resign');
  });
  $('offer-draw').addEventListener('click', () => change('offer_draw'));
  $('accept-draw').addEventListener('click', () => change('accept_draw'));
  $('decline-draw').addEventListener('click', () => change('decline_draw'));

  function clockText() {
    if (st.outcome || st.deadline === null || !st.joined)
      return '';
    const who = st.toAct ? `${st.toAct}: ` : '';
    const left = Math.max(0, st.deadline - (Date.now() / 1000 + st.offset));
    const m = Math.floor(left / 60);
    const s = Math.floor(left % 60);
    return `clock: ${who}${m}:${String(s).padStart(2, '0')} left in the turn`;
  }
  setInterval(() => {
    const c = $('online-clock');
    if (c)
      c.textContent = clockText();
  }, 250);

  connect();

  return {
    /** Whether the person at this page may act now in `game`. */
    canAct(game) {
      return st.joined && st.conn === 'connected' && !st.outcome && !st.pending &&
        st.side === game.side && !game.isOver;
    },
    /** Sends the seat's decision (N2 text); the page shows it once the server broadcasts it. */
    decide(action) {
      change('decision', { action });
    },
    get over() { return st.outcome !== null; },
    /** After the page's own drawing: the panel, and what the page says of the turn. */
    render(game) {
      const mine = st.side;
      st.toAct = game.isOver ? null : game.side;
      const seat = $('online-seat');
      seat.textContent = st.side === undefined ? 'Joining…' : mine ? `You play ${mine}` : 'Watching';
      seat.className = `chip ${mine ? mine.toLowerCase() : 'watch'}`;
      $('online-conn').textContent = st.conn === 'connected' ? '' : st.conn === 'failed' ?
        `Not connected: ${st.fatal}` : st.conn === 'connecting' ? 'Connecting…' : 'Connection lost: reconnecting…';
      $('online-clock').textContent = clockText();
      $('online-feed').textContent = st.feed;
      const live = st.joined && st.conn === 'connected' && !st.outcome && Boolean(mine) && !st.pending;
      const offered = st.drawOffer && st.drawOffer !== mine;
      $('online-actions').hidden = !mine || Boolean(st.outcome);
      $('end').closest('.row').hidden = st.side === null; // a watcher plays nothing
      $('resign').disabled = !live;
      $('resign').textContent = st.confirmResign ? 'Really resign?' : 'Resign';
      $('offer-draw').hidden = Boolean(offered);
      $('offer-draw').disabled = !live || st.drawOffer === mine;
      $('offer-draw').textContent = st.drawOffer === mine ? 'Draw offered' : 'Offer a draw';
      $('accept-draw').hidden = !offered;
      $('decline-draw').hidden = !offered;
      $('accept-draw').disabled = !live;
      $('decline-draw').disabled = !live;
      const end = $('online-end');
      end.hidden = !st.outcome;
      end.textContent = st.outcome ? `Game over: ${outcomeText(st.outcome, st.lastEvent)}, ${st.outcome.result}.` : '';
      record.textContent = st.outcome ? 'Download the game record' : 'Download the game record so far';
      if (st.outcome) {
        $('side-chip').textContent = 'Game over';
        $('side-chip').className = 'chip over';
        $('phase').textContent = '';
        $('pa').textContent = '';
        if (st.outcome.reason !== 'game') {
          const banner = $('result');
          const w = winnerOf(st.outcome.result);
          banner.textContent = outcomeText(st.outcome, st.lastEvent);
          banner.className = `banner ${w ? w.toLowerCase() : 'draw'}`;
          banner.hidden = false;
          $('status').textContent = `Game over: ${outcomeText(st.outcome, st.lastEvent)}`;
        }
      }
      let prompt = null;
      if (st.conn !== 'connected' || !st.joined)
        prompt = st.conn === 'failed' ? 'This page cannot join the game.' : 'Waiting for the server…';
      else if (st.outcome)
        prompt = `The game is over: ${outcomeText(st.outcome, st.lastEvent)}. The record can be downloaded below.`;
      else if (st.pending)
        prompt = 'Sent: waiting for the server…';
      else if (!mine)
        prompt = `Watching: ${game.side} to act.`;
      else if (game.side !== mine)
        prompt = `Waiting for ${game.side}, your opponent…`;
      else if (offered)
        prompt = `${st.drawOffer} offers a draw: accept or decline it, or play on (a decision declines it). ` +
          $('prompt').textContent;
      if (prompt !== null)
        $('prompt').textContent = prompt;
      Object.assign(document.body.dataset, {
        online: mine ?? (st.side === null ? 'watch' : ''), onlineSeq: String(st.seq), onlineConn: st.conn,
        onlineJoined: st.joined ? '1' : '', onlineOutcome: st.outcome ? `${st.outcome.result} ${st.outcome.reason}` : '',
        onlineDraw: st.drawOffer ?? '', onlinePending: st.pending ? st.pending.type : '',
      });
    },
  };
}
