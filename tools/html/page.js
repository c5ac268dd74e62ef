/* page.js - the replay of camelog html (embedded by the build).
 *
 * Reads the JSON of <script id="camelog-data"> (camelog-html(1)): the
 * steps (line, public text, events), the views (state at the first step
 * and the changes of each later one) and, for a complete game, the
 * reveal.  Builds everything with DOM calls and textContent: nothing of
 * the data is ever parsed as HTML, and every seat's name sits in a <bdi>
 * of its own (U+2068..U+2069 in attributes), so that no name can turn
 * the text around it.  No network: the page loads nothing.
 *
 * It opens on the last step (the finished game, with the reveal when
 * the page holds one) or on the step of the URL fragment (#step=N, and
 * as=... for a page of several perspectives), which it keeps up to date.
 * Every grid column, quest and line of the log jumps to its step. */
(function () {
  'use strict';

  var D = JSON.parse(document.getElementById('camelog-data').textContent);
  var app = document.getElementById('app');
  var cur = { view: 0, step: 0 };
  var board, logList, range, nowText, counter, seatBar;
  var logBuilt = -1;

  /* ------------------------------------------------------------ DOM */

  function el(tag, attrs, kids) {
    var e = document.createElement(tag);
    var k;
    for (k in attrs || {}) {
      if (attrs[k] === null || attrs[k] === undefined) {
        continue;
      }
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
    (kids || []).forEach(function add(c) {
      if (c === null || c === undefined) {
        return;
      }
      if (Array.isArray(c)) {
        c.forEach(add);
        return;
      }
      e.appendChild(typeof c === 'string' ? document.createTextNode(c) : c);
    });
    return e;
  }

  function rawName(k) {
    return D.names[k - 1] || '?';
  }

  /* A seat's name for an attribute: isolated by FSI..PDI. */
  function plainSeat(k) {
    return '\u2068' + rawName(k) + '\u2069 (p' + k + ')';
  }

  /* A seat's name isolated in a <bdi>, shortened by the style where the
   * width is short, whole in its title. */
  function nameEl(k) {
    return el('bdi', { class: 'name', title: rawName(k), text: rawName(k) });
  }

  function seatEl(k) {
    return el('span', { class: 'who' }, [nameEl(k), '\u00a0(p' + k + ')']);
  }

  /* The library's text with every "Name (pK)" in it isolated. */
  var namePats = null;

  function rich(text) {
    var out = [];
    var buf = '';
    var i = 0;
    var j, p;
    if (!namePats) {
      namePats = D.names.map(function (n, j) {
        return { k: j + 1, s: n + ' (p' + (j + 1) + ')' };
      }).sort(function (a, b) {
        return b.s.length - a.s.length;
      });
    }
    text = String(text);
    while (i < text.length) {
      p = null;
      for (j = 0; j < namePats.length; j++) {
        if (text.startsWith(namePats[j].s, i)) {
          p = namePats[j];
          break;
        }
      }
      if (p) {
        if (buf) {
          out.push(buf);
        }
        buf = '';
        out.push(seatEl(p.k));
        i += p.s.length;
      } else {
        buf += text[i];
        i++;
      }
    }
    if (buf) {
      out.push(buf);
    }
    return out;
  }

  /* seats [k, ...] as "A (p1), B (p2) and C (p3)" */
  function seatList(seats) {
    var out = [];
    seats.forEach(function (k, j) {
      if (j > 0) {
        out.push(j === seats.length - 1 ? ' and ' : ', ');
      }
      out.push(seatEl(k));
    });
    return out.length ? out : ['nobody'];
  }

  function cap(s) {
    s = String(s);
    return s.charAt(0).toUpperCase() + s.slice(1);
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

  /* Whether the reveal shows at step i: from the end of play on, in a
   * complete game (only pages that may show it hold it). */
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

  /* What the verification found: one line that opens to the details. */
  function verdict() {
    var v = D.verdict;
    var items = [];
    var warned = false;
    function add(cls, text) {
      warned = warned || cls === 'warn';
      items.push(el('li', { class: cls, text: text }));
    }
    var made = v.committed !== undefined ? v.committed : v.commitments;
    add('ok', 'Valid: camelog verified every line (' + v.lines +
        ' lines): the hash chain and the rules of the game; ' + (v.commitments ?
        v.commitments + ' commitments opened and matched.' : made +
        ' secrets committed, to be checked when the reveal opens them.'));
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
    var line = 'Verified: ' + v.lines + ' lines, ' + (v.progress === 'complete' ?
      'every secret opened' : v.progress === 'finished' ? 'over, not revealed' :
        'in progress') + (warned ? ' \u2014 with cautions' : '');
    return el('details', { class: 'verdict', id: 'verdict' }, [
      el('summary', { class: warned ? 'warn' : 'ok', text: line }),
      el('ul', { class: 'plain' }, items)
    ]);
  }

  /* --------------------------------------------------------- Avalon */

  var QUEST_SIZES = {
    5: [2, 3, 2, 3, 3], 6: [2, 3, 4, 3, 4], 7: [2, 3, 3, 4, 4],
    8: [3, 4, 4, 5, 5], 9: [3, 4, 4, 5, 5], 10: [3, 4, 4, 5, 5]
  };

  var ROLES = {
    merlin: 'Merlin', percival: 'Percival', servant: 'Loyal Servant',
    assassin: 'Assassin', morgana: 'Morgana', mordred: 'Mordred',
    oberon: 'Oberon', minion: 'Minion of Mordred'
  };

  function roleName(r) {
    return ROLES[r] || cap(label(r));
  }

  /* Proposals (with the step of their tally), quests and Lady uses and
   * the assassination, up to step upto (all of them with upto -1). */
  function avalonModel(upto) {
    var m = { cols: [], quests: {}, lady: [], assassination: null };
    var n = upto < 0 ? D.steps.length - 1 : upto;
    var i;
    for (i = 0; i <= n; i++) {
      D.steps[i].events.forEach(function (e) {
        var last = m.cols[m.cols.length - 1];
        if (e.event === 'propose') {
          m.cols.push({ round: e.round, slot: e.slot, leader: e.leader,
            team: e.team, votes: {}, result: '', step: i, last: i });
        } else if (e.event === 'vote' && last) {
          last.votes[e.seat] = e.vote;
          last.last = i;
        } else if (e.event === 'team' && last) {
          last.result = e.approved ? 'approved' : 'rejected';
          last.last = i;
        } else if (e.event === 'quest') {
          m.quests[e.round] = Object.assign({ step: i }, e);
        } else if (e.event === 'lady') {
          m.lady.push(Object.assign({ step: i }, e));
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

  /* The Lady's results the view knows: those of its seat, and all of
   * them once the reveal shows. */
  function ladyKnown(state, i) {
    var l = (state.known && state.known.lady) || [];
    if (revealShown(i) && D.reveal.lady) {
      l = l.concat(D.reveal.lady);
    }
    return l;
  }

  /* What the viewer's night showed of seat k: 'evil', 'either' (Merlin
   * or Morgana, to Percival) or ''. */
  function seenAs(me, k) {
    if (!me || !me.sees || me.sees.indexOf(k) < 0) {
      return '';
    }
    return me.role === 'percival' ? 'either' : 'evil';
  }

  function seatHead(k, known, state) {
    var s = known[k];
    var pick = D.views.length > 1 && viewIndex('p' + k) >= 0;
    var who = pick ? el('button', { type: 'button', class: 'pick',
      title: 'see the game as ' + plainSeat(k), 'data-as': 'p' + k,
      onclick: function () { setView(viewIndex('p' + k)); } }, [seatEl(k)]) :
      seatEl(k);
    var th = el('th', { class: 'seat', scope: 'row' }, [who]);
    if (s && (s.role || s.side)) {
      th.appendChild(el('span', { class: 'role side-' + s.side + ' ' + s.side,
        text: ' ' + (s.role ? roleName(s.role) : s.side) }));
    }
    if (state.viewer > 0) {
      var me = known[state.viewer];
      var seen = seenAs(me, k);
      if (k === state.viewer) {
        th.appendChild(el('span', { text: ' (you)' }));
      } else if (seen === 'either') {
        th.appendChild(el('span', { class: 'either mark-either',
          title: 'your night showed you this seat as Merlin or Morgana',
          text: ' Merlin or Morgana' }));
      } else if (seen === 'evil') {
        th.appendChild(el('span', { class: 'evil mark-evil',
          title: 'your night showed you this seat as evil',
          text: ' seen evil' }));
      }
    }
    ladyKnown(state, cur.step).forEach(function (l) {
      if (l.target === k) {
        th.appendChild(el('span', { class: 'lady-mark ' + l.side,
          title: 'the Lady of the Lake showed ' + plainSeat(l.holder) +
            ' this seat as ' + l.side,
          text: ' \u263D' + l.side }));
      }
    });
    return th;
  }

  function avalonGrid(state, i, m, known) {
    var players = D.names.length;
    var cards = avalonCards(state, i);
    var rounds = [];
    var byRound = {};
    var head1 = [el('th', { class: 'seat', text: 'Seat' })];
    var head2 = [el('th', { class: 'seat', text: 'proposal' })];
    var rows = [];
    var k;

    m.cols.forEach(function (c) {
      if (!byRound[c.round]) {
        byRound[c.round] = [];
        rounds.push(c.round);
      }
      byRound[c.round].push(c);
    });
    var curCol = null;
    m.cols.forEach(function (c) {
      if (c.step <= i) {
        curCol = c;
      }
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
          (c === curCol ? 'cur' : '') }, [el('button', { type: 'button',
          class: 'col', 'data-step': String(c.last), title: 'go to proposal ' +
            (j + 1) + ' of quest ' + c.slot + ' by ' + plainSeat(c.leader) +
            ': ' + (c.result || 'voting'),
          onclick: function () { go(c.last); } }, ['#' + (j + 1) + mark])]));
      });
      if (withCards) {
        head2.push(el('th', { text: 'cards', title: 'quest cards played' }));
      }
    });
    for (k = 1; k <= players; k++) {
      var cells = [seatHead(k, known, state)];
      rounds.forEach(function (r) {
        byRound[r].forEach(function (c, j) {
          var parts = [];
          var desc = [];
          var cls = (j === 0 ? 'round-start' : '') + (c === curCol ? ' cur' : '');
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
          td.setAttribute('title', plainSeat(k) + ': ' +
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
      el('h2', { text: 'Votes' }),
      el('p', { class: 'muted legend', text: '\u2605 leader, \u25CF on the' +
        ' team, \u2713 approve, \u2717 reject; a column header goes to' +
        ' that proposal' }),
      m.cols.length ? el('div', { class: 'scroll' }, [
        el('table', { class: 'grid', id: 'vote-grid' }, [
          el('thead', {}, [el('tr', {}, head1), el('tr', {}, head2)]),
          el('tbody', {}, rows)
        ])
      ]) : el('p', { class: 'muted', text: 'No team proposed yet.' })
    ]);
  }

  function avalonTrack(state, i, m) {
    var players = D.names.length;
    var sizes = QUEST_SIZES[players] || [];
    var played = {};
    var boxes = [];
    var all = avalonModel(-1);
    var slot;
    (state.quests || []).forEach(function (q) {
      played[q.slot] = q;
    });
    [1, 2, 3, 4, 5].forEach(function (slot) {
      var q = played[slot];
      var need = slot === 4 && players >= 7 ? 2 : 1;
      var target = null;
      Object.keys(all.quests).forEach(function (r) {
        if (all.quests[r].slot === slot && all.quests[r].step < view().steps) {
          target = all.quests[r].step;
        }
      });
      var cls = 'quest' + (q ? ' ' + q.result : '') +
        (state.team && state.team.slot === slot && !q ? ' current' : '');
      boxes.push(el('button', { type: 'button', class: cls,
        'data-slot': String(slot), 'data-result': q ? q.result : '',
        'data-step': target === null ? '' : String(target),
        title: target === null ? 'not played' : 'go to quest ' + slot,
        disabled: target === null ? 'disabled' : null,
        onclick: function () { go(target); } }, [
        el('b', { text: 'Quest ' + slot }),
        el('span', { text: (sizes[slot - 1] || '?') + ' knights' }),
        el('span', { class: 'need', text: need + ' fail' + (need > 1 ? 's' : '') }),
        el('span', { text: q ? (q.result === 'success' ? '\u2713 success' :
          '\u2717 ' + q.fails + ' fail' + (q.fails > 1 ? 's' : '')) : '' })
      ]));
    });
    var rej = [];
    for (slot = 1; slot <= 5; slot++) {
      rej.push(el('span', { class: slot <= state.rejections ? 'on' : '',
        text: slot <= state.rejections ? '\u2717' : String(slot) }));
    }
    var lady = null;
    if (state.lady_on) {
      var chain = [];
      var known = ladyKnown(state, i);
      m.lady.forEach(function (e, j) {
        if (j === 0) {
          chain.push(seatEl(e.holder));
        }
        var side = known.filter(function (l) {
          return l.round === e.round && l.target === e.target;
        })[0];
        chain.push(' \u2192 ');
        chain.push(seatEl(e.target));
        if (side) {
          chain.push(el('span', { class: side.side + ' side-' + side.side,
            'data-lady': side.side, text: ' ' + side.side }));
        }
      });
      if (!chain.length && state.lady) {
        chain.push(seatEl(state.lady));
      }
      lady = el('p', { id: 'lady' }, ['Lady of the Lake: ',
        chain.length ? chain : 'not placed yet']);
    }
    var extra = [];
    if (m.assassination) {
      var a = revealShown(i) ? D.reveal.assassination : null;
      extra.push(el('p', { id: 'assassination' }, ['Assassination: ',
        seatEl(m.assassination.assassin), ' names ',
        seatEl(m.assassination.target),
        a ? (a.hit ? ' \u2713 hit Merlin' : ' \u2717 missed') : '']));
    }
    return el('section', { class: 'panel', id: 'quests' }, [
      el('h2', { text: 'Quests' }),
      el('div', { class: 'track' }, boxes),
      el('p', { class: 'boxes', id: 'rejections' }, ['Rejected teams in a' +
        ' row: ' + state.rejections + ' of 5 ', el('span', {}, rej)]),
      lady
    ].concat(extra));
  }

  /* The finished game at a glance: who was who, who failed, the Lady,
   * the assassination (from the reveal, when the page holds it). */
  function avalonSummary(state, i) {
    var R = D.reveal;
    if (!revealShown(i)) {
      return null;
    }
    var who = R.seats.map(function (s) {
      var sees = (s.sees || []).length ? [s.role === 'percival' ?
        '; saw as Merlin or Morgana ' : s.role === 'merlin' ?
        '; saw as evil ' : '; saw as fellow evil ', seatList(s.sees)] : [];
      return el('li', { 'data-seat': String(s.seat) }, [seatEl(s.seat), ': ',
        el('span', { class: s.side + ' side-' + s.side,
          text: roleName(s.role) }), sees]);
    });
    var quests = (R.quests || []).map(function (q) {
      var failed = (q.cards || []).filter(function (c) {
        return c.value === 'fail';
      }).map(function (c) {
        return c.seat;
      });
      return el('li', { 'data-round': String(q.round) }, ['Quest ' + q.slot +
        (q.result === 'success' ? ' \u2713 succeeded' : ' \u2717 failed'),
        failed.length ? [': Fail played by ', seatList(failed)] :
          ': no Fail played']);
    });
    var lady = (R.lady || []).map(function (l) {
      return el('li', {}, [seatEl(l.holder), ' examined ', seatEl(l.target),
        ': ', el('span', { class: l.side + ' side-' + l.side, text: l.side })]);
    });
    var a = R.assassination;
    return el('section', { class: 'panel', id: 'summary' }, [
      el('h2', { text: 'Who was who' }),
      el('ul', { class: 'plain cols', id: 'roles' }, who),
      el('h2', { text: 'Who failed' }),
      el('ul', { class: 'plain', id: 'failed' }, quests),
      lady.length ? el('h2', { text: 'The Lady of the Lake' }) : null,
      lady.length ? el('ul', { class: 'plain', id: 'lady-results' }, lady) : null,
      a ? el('p', {}, ['The assassination: ', seatEl(a.assassin), ' named ',
        seatEl(a.target), ' (' + roleName(a.target_role) + '): ' +
        (a.hit ? 'Merlin found' : 'missed')]) : null
    ]);
  }

  function avalon(state, i) {
    var m = avalonModel(i);
    var known = knownSeats(state, i);
    return [avalonSummary(state, i), avalonTrack(state, i, m),
      avalonGrid(state, i, m, known)];
  }

  /* ------------------------------------------------------------ SoC */

  function label(s) {
    return String(s).replace(/_/g, ' ');
  }

  var KNIGHTS = {
    arthur: 'King Arthur', gawain: 'Sir Gawain', galahad: 'Sir Galahad',
    kay: 'Sir Kay', percival: 'Sir Percival', tristan: 'Sir Tristan',
    palamedes: 'Sir Palamedes', bedivere: 'Sir Bedivere', lancelot: 'Sir Lancelot'
  };
  var QUESTS = {
    black_knight: 'The Black Knight', lancelot: 'Lancelot\u2019s Armor',
    dragon: 'The Dragon', excalibur: 'Excalibur', grail: 'The Holy Grail',
    picts: 'The Picts', saxons: 'The Saxons'
  };
  var PLACES = { camelot: 'Camelot', 'off the board': 'out of the game' };

  /* A card's name as printed: fight_5 "Fight 5", lancelot_dragon_7_11
   * "Lancelot/Dragon 7/11", morgan_life "Morgan (life loss)". */
  function cardName(c) {
    var m = /^lancelot_dragon_(\d+)_(\d+)$/.exec(c);
    var morgan = { morgan_siege: 'add siege engines', morgan_draw3:
      'three more draws', morgan_life: 'life loss', morgan_discard: 'discards',
      morgan_volunteer: 'sacrifice' };
    if (m) {
      return 'Lancelot/Dragon ' + m[1] + '/' + m[2];
    }
    if (morgan[c]) {
      return 'Morgan (' + morgan[c] + ')';
    }
    return String(c).split('_').map(cap).join(' ').replace(/ Of /g, ' of ')
      .replace(/ The /g, ' the ');
  }

  /* The fight value of a card on quest q (0 when it has none). */
  function fightValue(c, q) {
    var m = /^fight_(\d+)$/.exec(c) || /^black_knight_(\d+)$/.exec(c);
    var l = /^lancelot_dragon_(\d+)_(\d+)$/.exec(c);
    if (m) {
      return parseInt(m[1], 10);
    }
    if (l) {
      return parseInt(q === 'dragon' ? l[2] : l[1], 10);
    }
    return 0;
  }

  function chips(list, cls) {
    return (list || []).map(function (c) {
      return el('span', { class: 'chip ' + cls, text: cardName(c) });
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

  function sum(list, q) {
    return (list || []).reduce(function (a, c) {
      return a + fightValue(c, q);
    }, 0);
  }

  function questPanel(name, q) {
    var body = [];
    var title = QUESTS[name] || cap(label(name));
    if (q === null || q === undefined) {
      body.push(el('p', { class: 'muted', text: name === 'dragon' ?
        'comes when Lancelot\u2019s Armor is over' : 'not on the board' }));
    } else if (q.evil || (q.knights && q.figures === undefined)) {
      var w = sum(q.knights, name);
      var b = sum(q.evil, name);
      body.push(el('p', { class: 'fight', 'data-white': String(w),
        'data-black': String(b) }, [el('b', { text: 'White ' + w }),
        ' against ', el('b', { text: 'black ' + b }),
        w > b ? ' \u2014 the knights lead' : ' \u2014 evil leads (ties go to evil)']));
      body.push(el('p', {}, ['\u25BC black: '].concat(
        (q.evil || []).length ? chips(q.evil, 'black') : ['none'])));
      body.push(el('p', {}, ['\u25B2 white: '].concat(
        (q.knights || []).length ? chips(q.knights, 'white') : ['none'])));
    } else if (name === 'excalibur') {
      var track = [];
      var j;
      for (j = 0; j <= 10; j++) {
        track.push(el('span', { class: j === q.position ? 'here' : '',
          title: j === 0 ? 'lost to evil' : j === 10 ? 'won by the knights' :
            'step ' + j, text: j === q.position ? '\u2694' : '\u00b7' }));
      }
      body.push(el('p', { 'data-track': 'excalibur' }, [q.state === 'won' ?
        'Won: Excalibur drawn from the lake' : q.state === 'lost' ?
        'Lost: Excalibur sank' : 'Excalibur at ' + q.position + ' of 10 ' +
        '(10: the knights take it, 0: lost)']));
      body.push(el('p', { class: 'slots excalibur' }, ['evil ', track,
        ' knights']));
    } else if (name === 'grail') {
      var black = q.spots.filter(function (x) { return x && !/grail/.test(x); });
      var white = q.spots.filter(function (x) { return x && /grail/.test(x); });
      body.push(el('p', { 'data-track': 'grail' }, [q.state === 'won' ?
        'Won: the Grail is found' : q.state === 'lost' ? 'Lost: the Grail' +
        ' is gone' : white.length + ' Grail and ' + black.length +
        ' black cards on its ' + q.spots.length + ' spots']));
      body.push(el('p', { class: 'slots' }, q.spots.map(function (x) {
        return el('span', { class: x ? (/grail/.test(x) ? 'white' : 'black') : '',
          title: x ? cardName(x) : 'empty', text: x ? (/grail/.test(x) ?
            '\u25B2' : '\u25BC') : '\u00b7' });
      })));
    } else if (q.figures !== undefined) {
      body.push(el('p', { 'data-track': name }, [q.figures + ' of 4 ' +
        (name === 'picts' ? 'Pict' : 'Saxon') + ' figures (the fourth ' +
        'loses the war) ', el('span', { class: 'slots' },
        slots(q.figures, 4, '\u25A0', '\u25A1', 'siege'))]));
      if (q.mordred) {
        body.push(el('p', { class: 'evil', text: 'Mordred joins them: the' +
          ' knights need one more Fight 5' }));
      }
      var wt = sum(q.knights, name);
      body.push(el('p', {}, ['\u25B2 white ' + wt + ': '].concat(
        (q.knights || []).length ? chips(q.knights, 'white') : ['none'])));
    }
    return el('div', { class: 'panel quest-panel', 'data-quest': name },
      [el('h2', { text: title })].concat(body));
  }

  /* Accusations and how each turned out, deaths, the end-of-game flip. */
  function socEvents(i) {
    var acc = [];
    var open = {};
    var j;
    for (j = 0; j <= i; j++) {
      D.steps[j].events.forEach(function (e) {
        if (e.event === 'accuse') {
          var li = el('li', { 'data-accuse': String(e.target) }, [seatEl(e.seat),
            ' accuses ', seatEl(e.target), ' of treason']);
          open[e.target] = li;
          acc.push(li);
        } else if (e.event === 'shows' && open[e.seat]) {
          open[e.seat].appendChild(el('span', { class: e.loyalty === 'traitor' ?
            'evil' : 'good', text: e.loyalty === 'traitor' ?
            ': right, the traitor is unmasked' : ': wrong, the card is loyal' }));
          delete open[e.seat];
        } else if (e.event === 'flip') {
          acc.push(el('li', {}, [seatEl(e.seat), ' turns over the loyalty card' +
            ' at the end of the game']));
        } else if (e.event === 'dies') {
          acc.push(el('li', {}, [seatEl(e.seat), ' dies \u2020']));
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
    var waiting = state.phase === 'over' ? null : state.to_act ?
      el('p', { id: 'to-act' }, ['To act: ', seatEl(state.to_act)]) :
      state.current ? el('p', { id: 'to-act' }, ['Turn of ',
        seatEl(state.current)]) : null;
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
      waiting
    ]);
    var cards = (state.knights || []).map(function (kn) {
      var s = known[kn.seat] || {};
      var status = [];
      if (!kn.alive) {
        status.push('\u2020 dead');
      }
      if (kn.revealed) {
        status.push('\u25C6 unmasked traitor');
      }
      if (kn.shown_loyal) {
        status.push('shown loyal');
      }
      if (kn.accused) {
        status.push('has made an accusation');
      }
      var loyalty = s.loyalty || '';
      var hand = s.hand && s.hand.length ? s.hand.map(cardName).join(', ') :
        null;
      return el('div', { class: 'knight' + (kn.alive ? '' : ' dead') +
        (state.current === kn.seat ? ' current' : ''),
      'data-seat': String(kn.seat) }, [
        el('h3', {}, [seatEl(kn.seat), state.current === kn.seat ? ' \u25B6' : '',
          state.viewer === kn.seat ? ' (you)' : '']),
        el('p', { 'data-f': 'knight', text: KNIGHTS[kn.knight] ||
          cap(label(kn.knight)) }),
        el('p', { 'data-f': 'lp', title: kn.lp + ' life points', text:
          kn.lp + ' life ' + new Array(Math.max(0, kn.lp) + 1).join('\u2665') }),
        el('p', { 'data-f': 'where', text: 'at ' + (PLACES[kn.location] ||
          QUESTS[kn.location] || cap(label(kn.location))) }),
        el('p', { 'data-f': 'hand', text: kn.hand + ' white card' +
          (kn.hand === 1 ? '' : 's') + (hand ? ': ' + hand : '') }),
        (kn.relics || []).length ? el('p', { 'data-f': 'relics', text:
          'holds ' + kn.relics.map(function (r) {
            return QUESTS[r] ? QUESTS[r].replace(/^The /, 'the ') : cardName(r);
          }).join(', ') }) : null,
        loyalty ? el('p', { 'data-f': 'loyalty', class: loyalty === 'traitor' ?
          'evil' : 'good', text: loyalty === 'traitor' ? '\u25C6 traitor' :
          '\u25CB loyal' }) : null,
        status.length ? el('p', { 'data-f': 'status', text: status.join(', ') }) :
          null
      ]);
    });
    var knights = el('section', { class: 'panel', id: 'knights' }, [
      el('h2', { text: 'Knights (\u25B6 to play, \u2665 life points)' }),
      el('div', { class: 'knights' }, cards)
    ]);
    var quests = el('div', { class: 'row', id: 'soc-quests' },
      Object.keys(state.quests || {}).map(function (k) {
        return questPanel(k, state.quests[k]);
      }));
    var acc = socEvents(i);
    var traitor = null;
    if (revealShown(i) && D.reveal) {
      traitor = el('p', { class: 'banner', id: 'traitor' },
        D.reveal.traitor ? ['The traitor was ', seatEl(D.reveal.traitor), '.'] :
          ['There was no traitor.']);
    }
    var news = el('section', { class: 'panel', id: 'accusations' }, [
      el('h2', { text: 'Accusations and the traitor' }),
      acc.length ? el('ul', { class: 'plain' }, acc) :
        el('p', { class: 'muted', text: 'No accusation yet.' }),
      traitor
    ]);
    return traitor ? [news, top, quests, knights] : [top, quests, knights, news];
  }

  /* ------------------------------------------------------ the page */

  var GAMES = {
    avalon: { render: avalon, turn: ['propose'], turnName: 'proposal',
      turnNames: 'proposals' },
    soc: { render: soc, turn: ['done'], turnName: 'turn', turnNames: 'turns' }
  };

  function game() {
    return GAMES[D.game] || { render: function () {
      return [el('p', { text: 'This page does not draw this game\u2019s board.' })];
    }, turn: [], turnName: 'turn', turnNames: 'turns' };
  }

  function outcome(i) {
    if (!D.winner || i < D.play_steps - 1 || !D.steps.length) {
      return null;
    }
    return el('p', { class: 'banner ' + D.winner, id: 'outcome', text:
      cap(D.winner) + ' won' + (D.reason ? ' (' + label(D.reason) + ')' : '') });
  }

  function viewIndex(as) {
    var j;
    for (j = 0; j < D.views.length; j++) {
      if (D.views[j].as === as) {
        return j;
      }
    }
    return -1;
  }

  /* The whole log of the view, once a view: a line a step, each a way
   * to its step. */
  function buildLog() {
    var v = view();
    var j;
    logList.textContent = '';
    for (j = 0; j < v.steps; j++) {
      logList.appendChild(el('li', { value: String(D.steps[j].line),
        'data-step': String(j) }, rich(stepText(j))));
    }
    logBuilt = cur.view;
  }

  function showLog(i) {
    var old = logList.querySelector('li.cur');
    var li = logList.children[i];
    if (old) {
      old.classList.remove('cur');
      old.removeAttribute('aria-current');
    }
    if (!li) {
      return;
    }
    li.classList.add('cur');
    li.setAttribute('aria-current', 'step');
    /* keep it in the middle of the log's own box, not moving the page */
    var top = li.offsetTop - logList.offsetTop;
    if (top < logList.scrollTop || top + li.offsetHeight >
        logList.scrollTop + logList.clientHeight) {
      logList.scrollTop = Math.max(0, top - logList.clientHeight / 2);
    }
  }

  function fragment() {
    return (D.views.length > 1 ? 'as=' + view().as + '&' : '') + 'step=' +
      (cur.step + 1);
  }

  function saveFragment() {
    var f = '#' + fragment();
    if (location.hash === f) {
      return;
    }
    try {
      history.replaceState(null, '', f);
    } catch (e) {
      location.replace(f);
    }
  }

  /* The step and view of the fragment, into cur; false if it has none. */
  function readFragment() {
    var h = location.hash.replace(/^#/, '');
    var s = /(?:^|&)step=(\d+)/.exec(h);
    var a = /(?:^|&)as=([a-z0-9]+)/.exec(h);
    if (a && viewIndex(a[1]) >= 0) {
      cur.view = viewIndex(a[1]);
    }
    if (s) {
      cur.step = Math.max(0, Math.min(view().steps - 1, parseInt(s[1], 10) - 1));
    }
    return !!s;
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
    counter.textContent = 'step ' + (i + 1) + ' of ' + v.steps + ' \u00b7 line ' +
      D.steps[i].line;
    nowText.textContent = '';
    rich(stepText(i)).forEach(function (n) {
      nowText.appendChild(typeof n === 'string' ? document.createTextNode(n) : n);
    });
    if (logBuilt !== cur.view) {
      buildLog();
    }
    showLog(i);
    if (seatBar) {
      Array.prototype.forEach.call(seatBar.querySelectorAll('button'),
        function (b, j) {
          b.setAttribute('aria-pressed', j === cur.view ? 'true' : 'false');
        });
    }
    document.body.setAttribute('data-step', String(i));
    document.body.setAttribute('data-view', v.as);
    saveFragment();
  }

  function go(i) {
    var n = view().steps;
    cur.step = Math.max(0, Math.min(n - 1, i));
    render();
  }

  function setView(j) {
    if (j < 0 || j >= D.views.length) {
      return;
    }
    cur.view = j;
    go(cur.step);
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
    if (e.altKey || e.ctrlKey || e.metaKey || (t && (t.tagName === 'SELECT' ||
        t.tagName === 'TEXTAREA' || (t.tagName === 'INPUT' &&
        t.type !== 'range')))) {
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
    app.textContent = '';
    app.appendChild(el('header', {}, [el('h1', { text: title }),
      el('p', { class: 'muted', text: meta })]));
    app.appendChild(verdict());

    if (!D.steps.length || !D.views.length) {
      app.appendChild(el('p', { text: 'The game has not started: nothing to show.' }));
      return;
    }
    var controls = el('section', { class: 'panel', id: 'timeline' });
    if (D.views.length > 1) {
      seatBar = el('div', { class: 'seats', id: 'perspective', role: 'group',
        'aria-label': 'seen by' }, ['Seen by: '].concat(D.views.map(
        function (v, j) {
          return el('button', { type: 'button', 'data-as': v.as,
            'aria-pressed': 'false', onclick: function () { setView(j); } },
          rich(v.label));
        })));
      controls.appendChild(seatBar);
    } else {
      controls.appendChild(el('p', { id: 'seen-by' }, ['Seen by ',
        rich(D.views[0].label), D.views[0].as === 'observer' ? ': public' +
        ' information only' + (D.reveal ? ', roles at the end' : '') :
          D.views[0].as !== 'all' ? ': what this seat knew during play' : '']));
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
    controls.appendChild(el('div', { class: 'controls jumps', id: 'jumps' }, [
      btn('\u25C0 quest', 'previous quest (Q)', function () { seek(-1, ['quest']); }),
      btn('quest \u25B6', 'next quest (q)', function () { seek(1, ['quest']); }),
      btn('\u25C0 ' + g.turnName, 'previous ' + g.turnName + ' (\u2191 or p)',
        function () { seek(-1, g.turn); }),
      btn(g.turnName + ' \u25B6', 'next ' + g.turnName + ' (\u2193 or n)',
        function () { seek(1, g.turn); })
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
      el('kbd', { text: 'Home' }), ' ', el('kbd', { text: 'End' }),
      ' the ends; a click on the log, a quest or a column goes there']));
    app.appendChild(controls);
    board = el('div', { id: 'board' });
    app.appendChild(board);
    logList = el('ol', { class: 'log', id: 'log', onclick: function (e) {
      var li = e.target.closest ? e.target.closest('li[data-step]') : null;
      if (li) {
        go(parseInt(li.getAttribute('data-step'), 10));
      }
    } });
    app.appendChild(el('section', { class: 'panel', id: 'events' }, [
      el('h2', { text: 'The whole game, line by line' }), logList]));
    document.addEventListener('keydown', onKey);
    window.addEventListener('hashchange', function () {
      var was = cur.view + ':' + cur.step;
      if (readFragment() && was !== cur.view + ':' + cur.step) {
        render();
      }
    });
    if (!readFragment()) {
      /* the end of play: the outcome, and the reveal where it shows */
      cur.step = Math.min(view().steps, D.play_steps || view().steps) - 1;
    }
    go(cur.step);
  }

  build();
}());
