/* report.js - camelog archive report (embedded by the build): the
 * archive's statistics, one section a game, with inline SVG charts.
 * Reads the keys of rpl_archive_stats() it knows and ignores the rest.
 * Builds everything with DOM calls; nothing is parsed as HTML but one
 * constant, which gives the SVG namespace without naming its URL. */
(function () {
  'use strict';

  var D = JSON.parse(document.getElementById('camelog-data').textContent);
  var app = document.getElementById('app');
  var SVG = (function () {
    var d = document.createElement('div');
    d.innerHTML = '<svg></svg>';
    return d.firstChild.namespaceURI;
  }());

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
      if (c !== null && c !== undefined) {
        e.appendChild(typeof c === 'string' ? document.createTextNode(c) : c);
      }
    });
    return e;
  }

  function svg(tag, attrs, text) {
    var e = document.createElementNS(SVG, tag);
    Object.keys(attrs).forEach(function (k) {
      e.setAttribute(k, attrs[k]);
    });
    if (text !== undefined) {
      e.textContent = text;
    }
    return e;
  }

  function pct(r) {
    return r === null || r === undefined ? '\u2013' :
      (100 * r).toFixed(1) + '%';
  }

  function label(s) {
    return String(s).replace(/_/g, ' ');
  }

  /* A horizontal bar chart of rows {name, rate, n}: rate 0..1.  With
   * wide, each name has a row of its own above its bar, so that a long
   * one (a role set) is read whole. */
  function bars(title, rows, what, wide, colour) {
    var h = wide ? 38 : 22;
    var w = 520;
    var left = wide ? 0 : 190;
    var s = svg('svg', { viewBox: '0 0 ' + w + ' ' + (rows.length * h + 8),
      role: 'img', 'aria-label': title, width: '100%' });
    s.style.maxWidth = w + 'px';
    rows.forEach(function (r, i) {
      var y = i * h + 4 + (wide ? 16 : 0);
      var bw = r.rate === null || r.rate === undefined ? 0 :
        Math.round((w - left - 80) * r.rate);
      s.appendChild(svg('text', wide ? { x: 0, y: y - 2, 'font-size': '12' } :
        { x: left - 6, y: y + 15, 'text-anchor': 'end', 'font-size': '12' },
      r.name));
      s.appendChild(svg('rect', { x: left, y: y + 3, width: w - left - 80,
        height: h - (wide ? 24 : 8), fill: '#eeeae0' }));
      s.appendChild(svg('rect', { x: left, y: y + 3, width: bw,
        height: h - (wide ? 24 : 8), fill: colour || '#a3262a',
        'data-rate': String(r.rate) }));
      s.appendChild(svg('text', { x: left + (w - left - 80) + 6, y: y + 14,
        'font-size': '12' }, pct(r.rate) + ' (' + r.n + ')'));
    });
    return el('figure', { class: 'panel' }, [
      el('h2', { text: title }), s,
      el('figcaption', { class: 'muted', text: what })]);
  }

  function table(cols, rows, id) {
    return el('div', { class: 'scroll' }, [el('table', { class: 'knights', id: id }, [
      el('thead', {}, [el('tr', {}, cols.map(function (c) {
        return el('th', { text: c[0] });
      }))]),
      el('tbody', {}, rows.map(function (r) {
        return el('tr', {}, cols.map(function (c) {
          return el('td', { text: c[1](r) });
        }));
      }))])]);
  }

  var ROLES = { merlin: 'Merlin', percival: 'Percival', assassin: 'Assassin',
    morgana: 'Morgana', mordred: 'Mordred', oberon: 'Oberon',
    servant: 'Loyal Servant', minion: 'Minion of Mordred' };

  /* A role set as players say it: its special roles by name, then how
   * many servants and minions: "Merlin, Assassin, 3 servants, 1 minion". */
  function roleSet(list) {
    var count = { servant: 0, minion: 0 };
    var named = [];
    String(list).split(',').forEach(function (r) {
      if (count[r] !== undefined) {
        count[r]++;
      } else {
        named.push(ROLES[r] || label(r));
      }
    });
    if (count.servant) {
      named.push(count.servant + ' servant' + (count.servant > 1 ? 's' : ''));
    }
    if (count.minion) {
      named.push(count.minion + ' minion' + (count.minion > 1 ? 's' : ''));
    }
    return named.join(', ');
  }

  var SOC_QUESTS = { black_knight: 'The Black Knight', lancelot: 'Lancelot\u2019s Armor',
    dragon: 'The Dragon', excalibur: 'Excalibur', grail: 'The Holy Grail',
    picts: 'The Picts', saxons: 'The Saxons' };

  /* Shadows over Camelot: the knights' wins, how games ended, the
   * quests, the traitor and the accusations, the players. */
  function socSection(g) {
    var s = g.stats.soc || {};
    var t = s.traitor || {};
    var a = s.accusations || {};
    var kids = [el('h2', { text: g.title + ': ' + (s.games || 0) + ' games' })];
    var ended = (s.knights || 0) + (s.evil || 0);
    kids.push(el('p', { id: 'soc-summary', text: ended ? 'The knights won ' +
      s.knights + ' and evil ' + s.evil + ' of the ' + ended +
      ' games that ended (knights ' + pct(s.knights_rate) + ').' :
      'No game has ended yet.' }));
    if (s.by_players && s.by_players.length) {
      kids.push(bars('The knights\u2019 win rate by player count',
        s.by_players.map(function (r) {
          return { name: r.players + ' players', rate: r.knights_rate, n: r.games };
        }), 'bar: share of the games the knights won; in brackets the games',
      false, '#1f5fae'));
    }
    if (s.reasons && s.reasons.length) {
      kids.push(bars('How the games ended', s.reasons.map(function (r) {
        return { name: r.winner + ': ' + label(r.reason), rate: r.share,
          n: r.games };
      }), 'bar: share of the games; in brackets the games'));
    }
    if (s.quests && s.quests.length) {
      kids.push(bars('Quests the knights won', s.quests.map(function (q) {
        return { name: SOC_QUESTS[q.quest] || label(q.quest), rate: q.won_rate,
          n: q.won + q.lost };
      }), 'bar: share of the times the quest ended that the knights won it;' +
        ' in brackets how often it ended', false, '#1f5fae'));
    }
    if (t.dealt !== undefined) {
      kids.push(el('div', { class: 'panel', id: 'soc-traitor' }, [
        el('h2', { text: 'The traitor' }),
        el('p', { text: 'Dealt in ' + t.dealt + ' games, in none of ' + t.none +
          '. Unmasked by an accusation ' + t.accusation + ' times, by Fate ' +
          t.fate + ', as the last knight alive ' + t.last + ', at the' +
          ' end-of-game flip ' + t.flip + '; never ' + t.never +
          (t.unknown ? ', not known ' + t.unknown : '') + '.' }),
        el('p', { text: a.made ? a.made + ' accusations: ' + a.right +
          ' right, ' + a.wrong + ' wrong (' + pct(a.right_rate) + ' right).' :
          'No accusation was made.' })]));
    }
    if (s.records && s.records.length) {
      kids.push(el('div', { class: 'panel' }, [el('h2', { text: 'Players' }),
        table([['player', function (r) { return r.name; }],
          ['games', function (r) { return String(r.games); }],
          ['wins', function (r) { return String(r.wins); }],
          ['win rate', function (r) { return pct(r.win_rate); }],
          ['loyal (wins)', function (r) { return r.loyal + ' (' + r.loyal_wins + ')'; }],
          ['traitor (wins)', function (r) { return r.traitor + ' (' + r.traitor_wins + ')'; }]
        ], s.records, 'players-' + g.game)]));
    }
    return el('section', { class: 'panel', id: 'game-' + g.game,
      'data-game': g.game }, kids);
  }

  function section(g) {
    var s = g.stats;
    if (g.game === 'soc') {
      return socSection(g);
    }
    var kids = [el('h2', { text: g.title + ': ' + s.games + ' games' })];
    var bad = s.evil_rate;
    kids.push(el('p', { text: 'Complete ' + (s.complete || 0) + ', finished ' +
      (s.finished || 0) + ', in progress ' + (s.in_progress || 0) +
      ', imported ' + (s.imported || 0) + '. Evil won ' + pct(bad) +
      ' of the games that ended.' }));
    if (s.by_players && s.by_players.length) {
      kids.push(bars('Evil\u2019s win rate by player count',
        s.by_players.map(function (r) {
          return { name: r.players + ' players', rate: r.evil_rate, n: r.games };
        }), 'bar: share of the games evil won; in brackets the games'));
    }
    if (s.by_roles && s.by_roles.length) {
      kids.push(bars('Evil\u2019s win rate by role set',
        s.by_roles.map(function (r) {
          return { name: r.players + ' players: ' + roleSet(r.roles),
            rate: r.evil_rate, n: r.games };
        }), 'bar: share of the games evil won; in brackets the games', true));
    }
    if (s.reasons && s.reasons.length) {
      kids.push(bars('How the games ended', s.reasons.map(function (r) {
        return { name: r.winner + ': ' + label(r.reason), rate: r.share,
          n: r.games };
      }), 'bar: share of the games; in brackets the games'));
    }
    if (s.assassinations) {
      kids.push(bars('The Assassin\u2019s hit rate', [{ name: 'Merlin named',
        rate: s.hit_rate, n: s.assassinations }], s.hits + ' hits in ' +
        s.assassinations + ' assassinations'));
    }
    if (s.roles && s.roles.length) {
      kids.push(el('div', { class: 'panel' }, [el('h2', { text: 'Roles' }),
        table([['role', function (r) { return label(r.role); }],
          ['seats', function (r) { return String(r.seats); }],
          ['wins', function (r) { return String(r.wins); }],
          ['win rate', function (r) { return pct(r.win_rate); }]], s.roles)]));
    }
    if (s.records && s.records.length) {
      var holder = el('div');
      var filter = el('input', { type: 'search', 'aria-label': 'player name',
        placeholder: 'player name' });
      var min = el('input', { type: 'number', min: '0', value: '0',
        'aria-label': 'at least this many games', style: 'width:5rem' });
      var draw = function () {
        var q = filter.value.toLowerCase();
        var m = parseInt(min.value, 10) || 0;
        holder.textContent = '';
        holder.appendChild(table([
          ['player', function (r) { return r.name; }],
          ['games', function (r) { return String(r.games); }],
          ['wins', function (r) { return String(r.wins); }],
          ['win rate', function (r) { return pct(r.win_rate); }],
          ['good (wins)', function (r) { return r.good + ' (' + r.good_wins + ')'; }],
          ['evil (wins)', function (r) { return r.evil + ' (' + r.evil_wins + ')'; }]
        ], s.records.filter(function (r) {
          return r.name.toLowerCase().indexOf(q) >= 0 && r.games >= m;
        }), 'players-' + g.game));
      };
      filter.addEventListener('input', draw);
      min.addEventListener('input', draw);
      draw();
      kids.push(el('div', { class: 'panel' }, [el('h2', { text: 'Players' }),
        el('p', { class: 'controls' }, ['Name ', filter, ' at least ', min,
          ' games']), holder]));
    }
    return el('section', { class: 'panel', id: 'game-' + g.game,
      'data-game': g.game }, kids);
  }

  document.title = 'camelog archive report \u2014 ' + D.archive;
  app.appendChild(el('h1', { text: 'Archive ' + D.archive }));
  app.appendChild(el('p', { class: 'muted', text: 'Each game its own' +
    ' section: statistics of different games never mix.' }));
  D.games.forEach(function (g) {
    app.appendChild(section(g));
  });
}());
