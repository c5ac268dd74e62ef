/* page.js - the replay of camelog html (embedded by the build).
 *
 * Reads the JSON of <script id="camelog-data"> (camelog-html(1)): the
 * steps (line, public text, events), the views (state at the first step
 * and the changes of each later one) and, for a complete game, the
 * reveal.  Builds everything with DOM calls and textContent: nothing of
 * the data is ever parsed as HTML.  No network: the page loads nothing. */
(function () {
  'use strict';

  var D = JSON.parse(document.getElementById('camelog-data').textContent);
  var app = document.getElementById('app');
  var cur = { view: 0, step: 0 };
  var board, logList, range, nowText, counter;

  /* ------------------------------------------------------------ DOM */

  function el(tag, attrs, kids) {
    var e = document.createElement(tag);
    var k;
    for (k in attrs || {}) {
      if (k === 'class') {
        e.className = attrs[k];
      } else if (k === 'text') {
        e.textContent = attrs[k];
      } else if (k.slice(0, 2) === 'on') {
        e.addEventListener(k.slice(2), attrs[k]);
      } else {
        e.setAttribute(k, attrs[k]);
      }
    }
    (kids || []).forEach(function (c) {
      if (c === null || c === undefined) {
        return;
      }
      e.appendChild(typeof c === 'string' ? document.createTextNode(c) : c);
    });
    return e;
  }

  function seatName(k) {
    return (D.names[k - 1] || '?') + ' (p' + k + ')';
  }

  /* --------------------------------------------------------- states */

  /* Applies [key, ..., value] changes, copying what it changes. */
  function patch(state, changes) {
    var root = state;
    changes.forEach(function (c) {
      var path = c.slice(0, -1);
      var value = c[c.length - 1];
      var i, node, child;
      if (path.length === 0) {
        root = value;
        return;
      }
      root = Array.isArray(root) ? root.slice() : Object.assign({}, root);
      node = root;
      for (i = 0; i < path.length - 1; i++) {
        child = node[path[i]];
        child = Array.isArray(child) ? child.slice() : Object.assign({}, child);
        node[path[i]] = child;
        node = child;
      }
      node[path[path.length - 1]] = value;
    });
    return root;
  }

  function states(view) {
    var i;
    if (!view.states) {
      view.states = [view.start];
      for (i = 1; i < view.steps; i++) {
        view.states.push(patch(view.states[i - 1], view.d[i]));
      }
    }
    return view.states;
  }

  function view() {
    return D.views[cur.view];
  }

  function stepText(i) {
    var t = view().text[String(i)];
    return t !== undefined ? t : D.steps[i].text;
  }

  /* Whether the observer may see the reveal at step i: from the end of
   * play on, in a complete game. */
  function revealShown(i) {
    return !!D.reveal && i >= D.play_steps - 1;
  }

  /* Seat -> {role, side, sees, loyalty, hand}, what the view knows. */
  function knownSeats(state, i) {
    var m = {};
    var known = state.known;
    if (known && known.seats) {
      known.seats.forEach(function (s) {
        m[s.seat] = s;
      });
    }
    if (revealShown(i) && D.reveal.seats) {
      D.reveal.seats.forEach(function (s) {
        m[s.seat] = Object.assign({}, s, m[s.seat] || {});
      });
    }
    return m;
  }

  function hasEvent(i, names) {
    return D.steps[i].events.some(function (e) {
      return names.indexOf(e.event) >= 0;
    });
  }

  /* -------------------------------------------------------- verdict */

  function verdict() {
    var v = D.verdict;
    var items = [];
    function add(cls, text) {
      items.push(el('li', { class: cls, text: text }));
    }
    add('ok', 'Valid: camelog verified every line (' + v.lines +
        ' lines): the hash chain, the rules of the game, and ' +
        v.commitments + ' commitments.');
    if (v.progress === 'complete') {
      add('ok', 'Complete: the game is over and every secret was opened' +
          ' and checked against its commitment.');
    } else if (v.progress === 'finished') {
      add('info', 'Finished, not revealed: the game is over but its' +
          ' secrets are not opened, so this page holds none.');
    } else {
      add('info', 'In progress: the game is not over; this page holds' +
          ' only what every player could see.');
    }
    if (v.unsealed_from) {
      add('warn', 'Lines ' + v.unsealed_from + ' to ' + v.lines +
          ' are not sealed: anyone could have written them.');
    } else {
      add('ok', v.seals + (v.seals === 1 ? ' dealer seal' : ' dealer seals') +
          ' verified; the last line is sealed.');
    }
    if (v.sigs) {
      add('ok', v.sigs + ' seat signatures verified.');
    } else {
      add('info', 'No seat signed its lines: only the dealer vouches for them.');
    }
    if (v.imported) {
      add('info', 'Dealt elsewhere: the game was recorded by another system' +
          ' and imported; the deal comes from that record, not from a seed.');
    } else if (v.entropy_seats === 0) {
      add('warn', 'Dealt here from a seed the dealer alone chose: the' +
          ' deal is committed, but its fairness rests on the dealer.');
    } else {
      add(v.entropy_seats === v.seats ? 'ok' : 'info', 'Dealt here from a' +
          ' seed to which ' + v.entropy_seats + ' of ' + v.seats +
          ' seats added entropy (' + v.entropy_signed + ' of them signed' +
          ' it): no one of them, nor the dealer, chose the deal alone.');
    }
    if (v.dealer_id) {
      add(v.key_pinned ? 'ok' : 'warn', 'Dealer key ID ' + v.dealer_id +
          (v.key_pinned ? ': the key pinned when the page was made.' :
            ': not pinned; anyone can make a key, so compare it with' +
            ' the one you trust (' + v.dealer + ').'));
    }
    (v.warnings || []).forEach(function (w) {
      add('warn', (w.line ? 'line ' + w.line + ': ' : '') + w.text);
    });
    return el('section', { class: 'panel verdict', id: 'verdict' }, [
      el('h2', { text: 'What camelog verify found when this page was made' }),
      el('ul', { class: 'plain' }, items)
    ]);
  }

  /* --------------------------------------------------------- Avalon */

  var QUEST_SIZES = {
    5: [2, 3, 2, 3, 3], 6: [2, 3, 4, 3, 4], 7: [2, 3, 3, 4, 4],
    8: [3, 4, 4, 5, 5], 9: [3, 4, 4, 5, 5], 10: [3, 4, 4, 5, 5]
  };

  function avalonModel(upto) {
    var m = { cols: [], quests: {}, lady: [], assassination: null };
    var i;
    for (i = 0; i <= upto; i++) {
      D.steps[i].events.forEach(function (e) {
        var last = m.cols[m.cols.length - 1];
        if (e.event === 'propose') {
          m.cols.push({ round: e.round, slot: e.slot, leader: e.leader,
            team: e.team, votes: {}, result: '', step: i });
        } else if (e.event === 'vote' && last) {
          last.votes[e.seat] = e.vote;
        } else if (e.event === 'team' && last) {
          last.result = e.approved ? 'approved' : 'rejected';
        } else if (e.event === 'quest') {
          m.quests[e.round] = e;
        } else if (e.event === 'lady') {
          m.lady.push(e);
        } else if (e.event === 'assassinate') {
          m.assassination = e;
        }
      });
    }
    return m;
  }

  /* Quest cards the view knows: round -> seat -> value. */
  function avalonCards(state, i) {
    var c = {};
    function put(round, seat, value) {
      c[round] = c[round] || {};
      c[round][seat] = value;
    }
    if (state.known && state.known.cards) {
      state.known.cards.forEach(function (k) {
        put(k.round, k.seat, k.value);
      });
    }
    if (revealShown(i) && D.reveal.quests) {
      D.reveal.quests.forEach(function (q) {
        (q.cards || []).forEach(function (k) {
          put(q.round, k.seat, k.value);
        });
      });
    }
    return c;
  }

  function roleCell(k, known, state) {
    var s = known[k];
    var th = el('th', { class: 'seat', scope: 'row' }, [seatName(k)]);
    if (s && s.role) {
      th.appendChild(el('span', { class: ' side-' + s.side + ' ' + s.side,
        text: ' ' + s.role }));
    } else if (s && s.side) {
      th.appendChild(el('span', { class: ' side-' + s.side + ' ' + s.side,
        text: ' ' + s.side }));
    }
    if (state.viewer > 0) {
      var me = known[state.viewer];
      if (k === state.viewer) {
        th.appendChild(el('span', { text: ' (you)' }));
      } else if (me && me.sees && me.sees.indexOf(k) >= 0) {
        th.appendChild(el('span', { class: 'evil', text: ' \u25C6 seen',
          title: 'your role shows you this seat' }));
      }
    }
    return th;
  }

  function avalonGrid(state, i, m, known) {
    var players = D.names.length;
    var cards = avalonCards(state, i);
    var rounds = [];
    var byRound = {};
    var head1 = [el('th', { class: 'seat', text: 'Seat' })];
    var head2 = [el('th', { class: 'seat', text: '' })];
    var rows = [];
    var k;

    m.cols.forEach(function (c) {
      if (!byRound[c.round]) {
        byRound[c.round] = [];
        rounds.push(c.round);
      }
      byRound[c.round].push(c);
    });
    rounds.forEach(function (r) {
      var cols = byRound[r];
      var withCards = !!cards[r];
      var q = m.quests[r];
      head1.push(el('th', { class: 'round-start', colspan:
        String(cols.length + (withCards ? 1 : 0)),
        text: 'Quest ' + cols[0].slot + (q ? (q.result === 'success' ?
          ' \u2713' : ' \u2717') : '') }));
      cols.forEach(function (c, j) {
        var mark = c.result === 'approved' ? ' \u2713' :
          c.result === 'rejected' ? ' \u2717' : ' \u2026';
        head2.push(el('th', { class: (j === 0 ? 'round-start ' : '') +
          (c.step <= i && c === m.cols[m.cols.length - 1] && !c.result ?
            'cur' : ''), title: 'proposal ' + (j + 1) + ': ' +
          (c.result || 'voting'), text: '#' + (j + 1) + mark }));
      });
      if (withCards) {
        head2.push(el('th', { text: 'cards', title: 'quest cards played' }));
      }
    });
    for (k = 1; k <= players; k++) {
      var cells = [roleCell(k, known, state)];
      rounds.forEach(function (r) {
        byRound[r].forEach(function (c, j) {
          var parts = [];
          var desc = [];
          var cls = j === 0 ? 'round-start' : '';
          if (c.leader === k) {
            parts.push('\u2605');
            desc.push('leader');
          }
          if (c.team.indexOf(k) >= 0) {
            parts.push('\u25CF');
            desc.push('on the team');
            cls += ' team';
          }
          var v = c.votes[k];
          var td = el('td', { class: cls }, [parts.join('')]);
          if (v) {
            td.appendChild(el('span', { class: v === 'yes' ? 'yes' : 'no',
              text: v === 'yes' ? '\u2713' : '\u2717' }));
            desc.push(v === 'yes' ? 'approved' : 'rejected');
          }
          td.setAttribute('title', D.names[k - 1] + ': ' +
            (desc.join(', ') || 'not on the team'));
          td.setAttribute('data-seat', String(k));
          cells.push(td);
        });
        if (cards[r]) {
          var v = cards[r][k];
          cells.push(el('td', { class: v ? (v === 'fail' ? 'no' : 'yes') : '',
            title: v ? 'played ' + v : '', 'data-card': v || '',
            text: v ? (v === 'fail' ? 'F \u2717' : 'S \u2713') : '' }));
        }
      });
      rows.push(el('tr', {}, cells));
    }
    return el('section', { class: 'panel', id: 'votes' }, [
      el('h2', { text: 'Votes: \u2605 leader, \u25CF team member, \u2713' +
        ' approve, \u2717 reject' }),
      m.cols.length ? el('div', { class: 'scroll' }, [
        el('table', { class: 'grid', id: 'vote-grid' }, [
          el('thead', {}, [el('tr', {}, head1), el('tr', {}, head2)]),
          el('tbody', {}, rows)
        ])
      ]) : el('p', { class: 'muted', text: 'No team proposed yet.' })
    ]);
  }

  function avalonTrack(state, m) {
    var players = D.names.length;
    var sizes = QUEST_SIZES[players] || [];
    var played = {};
    var boxes = [];
    var slot;
    (state.quests || []).forEach(function (q) {
      played[q.slot] = q;
    });
    for (slot = 1; slot <= 5; slot++) {
      var q = played[slot];
      var need = slot === 4 && players >= 7 ? 2 : 1;
      var cls = 'quest' + (q ? ' ' + q.result : '') +
        (state.team && state.team.slot === slot && !q ? ' current' : '');
      boxes.push(el('div', { class: cls, 'data-slot': String(slot),
        'data-result': q ? q.result : '' }, [
        el('b', { text: 'Quest ' + slot }),
        el('span', { text: (sizes[slot - 1] || '?') + ' knights' }),
        el('span', { text: need + ' fail' + (need > 1 ? 's' : '') +
          ' to fail' }),
        el('span', { text: q ? (q.result === 'success' ? '\u2713 success' :
          '\u2717 fail') + ', ' + q.fails + ' \u2717' : '' })
      ]));
    }
    var rej = [];
    for (slot = 1; slot <= 5; slot++) {
      rej.push(el('span', { class: slot <= state.rejections ? 'on' : '',
        text: slot <= state.rejections ? '\u2717' : String(slot) }));
    }
    var lady = null;
    if (state.lady_on) {
      var chain = [];
      var known = state.known && state.known.lady ? state.known.lady : [];
      m.lady.forEach(function (e, j) {
        if (j === 0) {
          chain.push(seatName(e.holder));
        }
        var side = known.filter(function (l) {
          return l.round === e.round && l.target === e.target;
        })[0];
        chain.push(seatName(e.target) + (side ? ' (' + side.side + ')' : ''));
      });
      if (!chain.length && state.lady) {
        chain.push(seatName(state.lady));
      }
      lady = el('p', { id: 'lady' }, ['Lady of the Lake: ' +
        (chain.join(' \u2192 ') || 'not placed yet')]);
    }
    var extra = [];
    if (m.assassination) {
      var hit = D.reveal && revealShown(cur.step) && D.reveal.assassination ?
        (D.reveal.assassination.hit ? ' \u2713 hit Merlin' :
          ' \u2717 missed') : '';
      extra.push(el('p', { text: 'Assassination: ' +
        seatName(m.assassination.assassin) + ' names ' +
        seatName(m.assassination.target) + hit }));
    }
    return el('section', { class: 'panel', id: 'quests' }, [
      el('h2', { text: 'Quests' }),
      el('div', { class: 'track' }, boxes),
      el('p', { class: 'boxes', id: 'rejections' }, ['Rejected teams in a' +
        ' row: ' + state.rejections + ' of 5 ', el('span', {}, rej)]),
      lady
    ].concat(extra));
  }

  function avalon(state, i) {
    var m = avalonModel(i);
    var known = knownSeats(state, i);
    return [avalonTrack(state, m), avalonGrid(state, i, m, known)];
  }

  /* ------------------------------------------------------------ SoC */

  function label(s) {
    return String(s).replace(/_/g, ' ');
  }

  function chips(list, cls) {
    return (list || []).map(function (c) {
      return el('span', { class: 'chip ' + cls, text: label(c) });
    });
  }

  function slots(n, total, on, off, cls) {
    var s = [];
    var j;
    for (j = 0; j < total; j++) {
      s.push(el('span', { class: j < n ? cls : '', text: j < n ? on : off }));
    }
    return s;
  }

  function questPanel(name, q) {
    var body = [];
    if (q === null || q === undefined) {
      body.push(el('p', { class: 'muted', text: 'not on the board' }));
    } else {
      Object.keys(q).forEach(function (k) {
        var v = q[k];
        if (k === 'evil') {
          body.push(el('p', {}, ['\u25BC black: '].concat(
            v.length ? chips(v, 'black') : ['none'])));
        } else if (k === 'knights') {
          body.push(el('p', {}, ['\u25B2 white: '].concat(
            v.length ? chips(v, 'white') : ['none'])));
        } else if (k === 'spots') {
          var filled = v.filter(function (x) {
            return x !== null;
          });
          body.push(el('p', {}, ['spots: ' + filled.length + ' of ' +
            v.length + ' ', el('span', { class: 'slots' }, v.map(function (x) {
              return el('span', { class: x ? 'black' : '', title: x ?
                label(x) : 'empty', text: x ? (/grail/.test(x) ? '\u25B2' :
                '\u25BC') : '\u00b7' });
            }))]));
        } else if (typeof v === 'boolean') {
          body.push(el('p', { text: label(k) + ': ' + (v ? 'yes' : 'no') }));
        } else if (typeof v !== 'object') {
          body.push(el('p', { text: label(k) + ': ' + label(v) }));
        }
      });
    }
    return el('div', { class: 'panel', 'data-quest': name },
      [el('h2', { text: label(name) })].concat(body));
  }

  function socEvents(i) {
    var acc = [];
    var j;
    for (j = 0; j <= i; j++) {
      D.steps[j].events.forEach(function (e) {
        if (e.event === 'accuse') {
          acc.push(seatName(e.seat) + ' accuses ' + seatName(e.target));
        } else if (e.event === 'flip') {
          acc.push(seatName(e.seat) + ' turns over the loyalty card' +
            ' at the end of the game');
        } else if (e.event === 'dies') {
          acc.push(seatName(e.seat) + ' dies \u2020');
        }
      });
    }
    return acc;
  }

  function soc(state, i) {
    var known = knownSeats(state, i);
    var sw = state.swords || { white: 0, black: 0 };
    var table = [];
    var j;
    for (j = 0; j < 12; j++) {
      table.push(j < sw.white ? el('span', { class: 'white', title:
        'white sword', text: '\u25B2' }) : j >= 12 - sw.black ?
        el('span', { class: 'black', title: 'black sword', text: '\u25BC' }) :
        el('span', { title: 'empty', text: '\u00b7' }));
    }
    var top = el('section', { class: 'panel', id: 'table' }, [
      el('h2', { text: 'The Round Table' }),
      el('p', { id: 'swords' }, ['Swords: \u25B2 ' + sw.white + ' white, \u25BC ' +
        sw.black + ' black ', el('span', { class: 'slots' }, table)]),
      el('p', { id: 'siege' }, ['Siege engines: ' + state.siege + ' of 12 ',
        el('span', { class: 'slots' },
          slots(state.siege, 12, '\u25A0', '\u25A1', 'siege'))]),
      state.decks ? el('p', { class: 'muted', text: 'White deck ' +
        state.decks.white + ' (' + state.decks.white_discards +
        ' discarded), black deck ' + state.decks.black + ' (' +
        state.decks.black_discards + ' discarded)' }) : null,
      state.next ? el('p', { text: 'Next: ' + state.next }) : null
    ]);
    var rows = (state.knights || []).map(function (kn) {
      var s = known[kn.seat] || {};
      var status = [];
      if (!kn.alive) {
        status.push('\u2020 dead');
      }
      if (kn.accused) {
        status.push('accused');
      }
      if (kn.revealed) {
        status.push('\u25C6 revealed traitor');
      }
      if (kn.shown_loyal) {
        status.push('shown loyal');
      }
      var loyalty = s.loyalty || '';
      return el('tr', { 'data-seat': String(kn.seat), class: kn.alive ? '' :
        'dead' }, [
        el('th', { scope: 'row', text: seatName(kn.seat) +
          (state.current === kn.seat ? ' \u25B6' : '') +
          (state.viewer === kn.seat ? ' (you)' : '') }),
        el('td', { text: label(kn.knight) }),
        el('td', { title: kn.lp + ' life points', text: kn.lp + ' ' +
          new Array(Math.max(0, kn.lp) + 1).join('\u2665') }),
        el('td', { text: label(kn.location) }),
        el('td', { text: String(kn.hand) + (s.hand ? ': ' +
          s.hand.map(label).join(', ') : '') }),
        el('td', { text: (kn.relics || []).map(label).join(', ') }),
        el('td', { class: loyalty === 'traitor' ? 'evil' : loyalty ?
          'good' : '', text: loyalty === 'traitor' ? '\u25C6 traitor' :
          loyalty ? '\u25CB loyal' : '?' }),
        el('td', { text: status.join(', ') })
      ]);
    });
    var knights = el('section', { class: 'panel', id: 'knights' }, [
      el('h2', { text: 'Knights (\u25B6 to play, \u2665 life points)' }),
      el('div', { class: 'scroll' }, [el('table', { class: 'knights' }, [
        el('thead', {}, [el('tr', {}, ['Seat', 'Knight', 'Life', 'Where',
          'Hand', 'Relics', 'Loyalty', 'Status'].map(function (h) {
          return el('th', { text: h });
        }))]),
        el('tbody', {}, rows)
      ])])
    ]);
    var quests = el('div', { class: 'row', id: 'soc-quests' },
      Object.keys(state.quests || {}).map(function (k) {
        return questPanel(k, state.quests[k]);
      }));
    var acc = socEvents(i);
    var traitor = null;
    if (revealShown(i) && D.reveal) {
      traitor = el('p', { class: 'banner', id: 'traitor', text:
        D.reveal.traitor ? 'The traitor was ' + seatName(D.reveal.traitor) +
        '.' : 'There was no traitor.' });
    }
    var news = el('section', { class: 'panel', id: 'accusations' }, [
      el('h2', { text: 'Accusations and the traitor' }),
      acc.length ? el('ul', { class: 'plain' }, acc.map(function (t) {
        return el('li', { text: t });
      })) : el('p', { class: 'muted', text: 'No accusation yet.' }),
      traitor
    ]);
    return [top, quests, knights, news];
  }

  /* ------------------------------------------------------ the page */

  var GAMES = {
    avalon: { render: avalon, turn: ['propose'], turnName: 'proposal' },
    soc: { render: soc, turn: ['done'], turnName: 'turn' }
  };

  function game() {
    return GAMES[D.game] || { render: function () {
      return [el('p', { text: 'This page does not draw this game\u2019s board.' })];
    }, turn: [], turnName: 'turn' };
  }

  function outcome(i) {
    if (!D.winner || i < D.play_steps - 1 || !D.steps.length) {
      return null;
    }
    return el('p', { class: 'banner', id: 'outcome', text: 'Winner: ' +
      D.winner + (D.reason ? ' (' + label(D.reason) + ')' : '') });
  }

  function render() {
    var v = view();
    var i = cur.step;
    var st = states(v)[i];
    board.textContent = '';
    [outcome(i)].concat(game().render(st, i)).forEach(function (n) {
      if (n) {
        board.appendChild(n);
      }
    });
    range.max = String(v.steps - 1);
    range.value = String(i);
    range.setAttribute('aria-valuetext', 'step ' + (i + 1) + ': ' + stepText(i));
    counter.textContent = 'step ' + (i + 1) + ' of ' + v.steps + ', line ' +
      D.steps[i].line;
    nowText.textContent = stepText(i);
    logList.textContent = '';
    var from = Math.max(0, i - 7);
    var j;
    for (j = from; j <= i; j++) {
      logList.appendChild(el('li', { value: String(D.steps[j].line),
        class: j === i ? 'cur' : '', text: stepText(j) }));
    }
    document.body.setAttribute('data-step', String(i));
    document.body.setAttribute('data-view', v.as);
  }

  function go(i) {
    var n = view().steps;
    cur.step = Math.max(0, Math.min(n - 1, i));
    render();
  }

  /* The next (dir 1) or previous (-1) step with one of the events. */
  function seek(dir, names) {
    var n = view().steps;
    var i;
    for (i = cur.step + dir; i >= 0 && i < n; i += dir) {
      if (hasEvent(i, names)) {
        go(i);
        return;
      }
    }
    go(dir > 0 ? n - 1 : 0);
  }

  function onKey(e) {
    var t = e.target;
    if (e.altKey || e.ctrlKey || e.metaKey || (t && t.tagName === 'SELECT')) {
      return;
    }
    var turn = game().turn;
    var handled = true;
    switch (e.key) {
    case 'ArrowRight': go(cur.step + 1); break;
    case 'ArrowLeft': go(cur.step - 1); break;
    case 'ArrowDown': case 'n': seek(1, turn); break;
    case 'ArrowUp': case 'p': seek(-1, turn); break;
    case 'q': seek(1, ['quest']); break;
    case 'Q': seek(-1, ['quest']); break;
    case 'Home': go(0); break;
    case 'End': go(view().steps - 1); break;
    default: handled = false;
    }
    if (handled) {
      e.preventDefault();
    }
  }

  function build() {
    var g = game();
    var title = D.title + ' \u2014 game ' + D.id.slice(0, 8);
    document.title = title;
    var meta = [D.file, D.created ? 'recorded ' + D.created : null,
      D.names.length + ' seats', D.progress.replace('_', ' ')]
      .filter(Boolean).join(' \u00b7 ');
    var header = el('header', {}, [el('h1', { text: title }),
      el('p', { class: 'muted', text: meta })]);
    app.appendChild(header);
    app.appendChild(verdict());

    if (!D.steps.length || !D.views.length) {
      app.appendChild(el('p', { text: 'The game has not started: nothing to show.' }));
      return;
    }
    var controls = el('section', { class: 'panel', id: 'timeline' });
    if (D.views.length > 1) {
      var sel = el('select', { id: 'perspective', 'aria-label': 'perspective',
        onchange: function () {
          cur.view = sel.selectedIndex;
          go(cur.step);
        } }, D.views.map(function (v) {
        return el('option', { value: v.as, text: v.label });
      }));
      controls.appendChild(el('p', {}, [el('label', { for: 'perspective',
        text: 'Seen by ' }), sel]));
    } else {
      controls.appendChild(el('p', { id: 'seen-by', text: 'Seen by ' +
        D.views[0].label + (D.views[0].as === 'observer' ? ': public' +
        ' information only' + (D.reveal ? ', roles at the end' : '') :
          D.views[0].as !== 'all' ? ': what this seat knew during play' :
            '') }));
    }
    range = el('input', { type: 'range', min: '0', id: 'scrub', step: '1',
      'aria-label': 'step', oninput: function () {
        go(parseInt(range.value, 10));
      } });
    function btn(text, aria, f) {
      return el('button', { type: 'button', 'aria-label': aria, title: aria,
        text: text, onclick: f });
    }
    controls.appendChild(el('div', { class: 'controls' }, [
      btn('\u21E4', 'first step (Home)', function () { go(0); }),
      btn('\u2191', 'previous ' + g.turnName + ' (\u2191 or p)',
        function () { seek(-1, g.turn); }),
      btn('\u2190', 'previous step (\u2190)', function () { go(cur.step - 1); }),
      range,
      btn('\u2192', 'next step (\u2192)', function () { go(cur.step + 1); }),
      btn('\u2193', 'next ' + g.turnName + ' (\u2193 or n)',
        function () { seek(1, g.turn); }),
      btn('\u21E5', 'last step (End)', function () { go(view().steps - 1); })
    ]));
    counter = el('p', { class: 'muted', id: 'counter' });
    nowText = el('p', { class: 'now', id: 'now', 'aria-live': 'polite' });
    controls.appendChild(counter);
    controls.appendChild(nowText);
    controls.appendChild(el('p', { class: 'keys muted' }, [
      el('kbd', { text: '\u2190' }), ' ', el('kbd', { text: '\u2192' }),
      ' step, ', el('kbd', { text: '\u2191' }), ' ', el('kbd', { text: '\u2193' }),
      ' or ', el('kbd', { text: 'p' }), ' ', el('kbd', { text: 'n' }),
      ' ' + g.turnName + ', ', el('kbd', { text: 'q' }), ' ',
      el('kbd', { text: 'Q' }), ' next or previous quest, ',
      el('kbd', { text: 'Home' }), ' ', el('kbd', { text: 'End' })]));
    app.appendChild(controls);
    board = el('div', { id: 'board' });
    app.appendChild(board);
    logList = el('ol', { class: 'log', id: 'log' });
    app.appendChild(el('section', { class: 'panel' }, [
      el('h2', { text: 'What happened' }), logList]));
    document.addEventListener('keydown', onKey);
    go(0);
  }

  build();
}());
