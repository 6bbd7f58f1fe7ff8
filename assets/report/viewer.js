// report.html's script: sortable tables and the game viewer. Self-contained (no network).
// The games come as JSON (#games-data): each a start position in its game's text format and,
// per move, the changes to the previous position's text ([offset, text], or [-1, text] for a
// whole new text). The engines replayed them when the report was written; this script only
// applies the changes and draws the board the text describes.
(function () {
  "use strict";

  // Sortable tables: click a header to sort by it (numbers as numbers), again to reverse.
  function cellValue(td) {
    var t = td.textContent.trim();
    var n = parseFloat(t.replace(/[−–]/g, "-"));
    return { text: t, num: /^[-−–+]?\d/.test(t) && !isNaN(n) ? n : null };
  }
  document.querySelectorAll("table.sortable").forEach(function (table) {
    var heads = table.querySelectorAll("thead th");
    heads.forEach(function (th, col) {
      th.addEventListener("click", function () {
        var asc = !th.classList.contains("sorted-asc");
        heads.forEach(function (h) { h.classList.remove("sorted-asc", "sorted-desc"); });
        th.classList.add(asc ? "sorted-asc" : "sorted-desc");
        var body = table.tBodies[0];
        var rows = Array.prototype.slice.call(body.rows);
        rows.sort(function (a, b) {
          var x = cellValue(a.cells[col]), y = cellValue(b.cells[col]);
          var c = (x.num !== null && y.num !== null) ? x.num - y.num : x.text.localeCompare(y.text, undefined, { numeric: true });
          return asc ? c : -c;
        });
        rows.forEach(function (r) { body.appendChild(r); });
      });
    });
  });

  var data = document.getElementById("games-data");
  if (!data) return;
  var games = JSON.parse(data.textContent);
  var select = document.getElementById("game"), slider = document.getElementById("ply");
  var board = document.getElementById("board"), moveList = document.getElementById("moves");
  var status = document.getElementById("status"), result = document.getElementById("result");
  var positionText = document.getElementById("position");
  var current = null, positions = [], ply = 0;

  function apply(text, changes) {
    var chars = text.split("");
    changes.forEach(function (c) {
      if (c[0] < 0) { chars = c[1].split(""); return; }
      var s = c[1].split("");
      for (var k = 0; k < s.length; k++) chars[c[0] + k] = s[k];
    });
    return chars.join("");
  }

  function svg(w, h, body) {
    return '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ' + w + " " + h + '">' + body + "</svg>";
  }
  function rect(x, y, w, h, fill, stroke) {
    return '<rect x="' + x + '" y="' + y + '" width="' + w + '" height="' + h + '" fill="' + fill + '"' + (stroke ? ' stroke="' + stroke + '"' : "") + "/>";
  }
  function disc(x, y, r, fill, stroke) {
    return '<circle cx="' + x + '" cy="' + y + '" r="' + r + '" fill="' + fill + '" stroke="' + (stroke || "#222") + '" stroke-width="1.5"/>';
  }
  function label(x, y, t) {
    return '<text x="' + x + '" y="' + y + '" font-size="11" text-anchor="middle" fill="#555">' + t + "</text>";
  }

  // Othello: rows of . X O # (blocked) under the header lines.
  function drawOthello(text) {
    var rows = text.split("\n").filter(function (l) { return /^[.XO#]+$/.test(l); });
    var n = rows.length, s = 40, pad = 18, out = "";
    for (var r = 0; r < n; r++) {
      out += label(pad / 2, pad + r * s + s / 2 + 4, r + 1);
      for (var c = 0; c < n; c++) {
        if (r === 0) out += label(pad + c * s + s / 2, pad - 5, String.fromCharCode(97 + c));
        var ch = rows[r][c], x = pad + c * s, y = pad + r * s;
        out += rect(x, y, s, s, ch === "#" ? "#777" : "#2e8b57", "#1d5c3a");
        if (ch === "X") out += disc(x + s / 2, y + s / 2, s * 0.4, "#111");
        if (ch === "O") out += disc(x + s / 2, y + s / 2, s * 0.4, "#f5f5f5");
      }
    }
    return svg(pad + n * s + 2, pad + n * s + 2, out);
  }

  // Freckers: rows of space-separated . * (lily pad) R B.
  function drawFreckers(text) {
    var rows = text.split("\n").filter(function (l) { return /^[.*RB]( [.*RB])+$/.test(l); }).map(function (l) { return l.split(" "); });
    var n = rows.length, s = 44, pad = 18, out = "";
    for (var r = 0; r < n; r++) {
      out += label(pad / 2, pad + r * s + s / 2 + 4, r);
      for (var c = 0; c < rows[r].length; c++) {
        if (r === 0) out += label(pad + c * s + s / 2, pad - 5, c);
        var ch = rows[r][c], x = pad + c * s, y = pad + r * s;
        out += rect(x, y, s, s, "#dfeef7", "#b9d3e3");
        if (ch !== ".") out += disc(x + s / 2, y + s / 2, s * 0.42, "#7cc26b", "#4d8a40");
        if (ch === "R") out += disc(x + s / 2, y + s / 2, s * 0.27, "#d1495b");
        if (ch === "B") out += disc(x + s / 2, y + s / 2, s * 0.27, "#2f6db3");
      }
    }
    return svg(pad + n * s + 2, pad + n * s + 2, out);
  }

  // Colosseum: the ASCII grid; cells at odd lines, column 4c+2; a wall right of cell c is a "|"
  // at 4c+4; a wall below it a "-" at 4c+2 of the next line.
  function drawColosseum(text) {
    var g = text.split("\n").filter(function (l) { return l[0] === "+" || l[0] === "|"; });
    var n = (g.length - 1) / 2, s = 40, pad = 18, out = "";
    for (var r = 0; r < n; r++) {
      out += label(pad / 2, pad + r * s + s / 2 + 4, r);
      for (var c = 0; c < n; c++) {
        if (r === 0) out += label(pad + c * s + s / 2, pad - 5, c);
        var x = pad + c * s, y = pad + r * s, ch = g[1 + 2 * r][4 * c + 2];
        out += rect(x, y, s, s, "#f3efe6", "#e0dacb");
        if (ch === "A") out += disc(x + s / 2, y + s / 2, s * 0.33, "#d1495b");
        if (ch === "B") out += disc(x + s / 2, y + s / 2, s * 0.33, "#2f6db3");
      }
    }
    var wall = function (x1, y1, x2, y2) { return '<line x1="' + x1 + '" y1="' + y1 + '" x2="' + x2 + '" y2="' + y2 + '" stroke="#222" stroke-width="4" stroke-linecap="round"/>'; };
    for (var rr = 0; rr < n; rr++) {
      for (var cc = 0; cc <= n; cc++) {
        if (g[1 + 2 * rr][4 * cc] === "|") out += wall(pad + cc * s, pad + rr * s, pad + cc * s, pad + (rr + 1) * s);
      }
    }
    for (var r2 = 0; r2 <= n; r2++) {
      for (var c2 = 0; c2 < n; c2++) {
        if (g[2 * r2][4 * c2 + 2] === "-") out += wall(pad + c2 * s, pad + r2 * s, pad + (c2 + 1) * s, pad + r2 * s);
      }
    }
    return svg(pad + n * s + 4, pad + n * s + 4, out);
  }

  // Life-and-death: "attacker black|white", "<side> to move", then the problem's map: X attacker,
  // O defender, . empty point of the region, # wall (attacker stones outside it), space off it.
  function drawTsumego(text) {
    var lines = text.split("\n");
    var attackerBlack = /black/.test(lines[0]);
    var rows = lines.slice(2).filter(function (l) { return l.length > 0; });
    var w = rows.reduce(function (m, r) { return Math.max(m, r.length); }, 0), s = 34, pad = 14, out = "";
    var colour = function (attacker) { return attacker === attackerBlack ? "#111" : "#f5f5f5"; };
    out += rect(0, 0, pad * 2 + w * s, pad * 2 + rows.length * s, "#e3c08d");
    for (var r = 0; r < rows.length; r++) {
      for (var c = 0; c < w; c++) {
        var ch = rows[r][c] || " ", x = pad + c * s + s / 2, y = pad + r * s + s / 2;
        if (ch === " ") continue;
        out += '<line x1="' + (x - s / 2) + '" y1="' + y + '" x2="' + (x + s / 2) + '" y2="' + y + '" stroke="#8a6a3a"/>';
        out += '<line x1="' + x + '" y1="' + (y - s / 2) + '" x2="' + x + '" y2="' + (y + s / 2) + '" stroke="#8a6a3a"/>';
        if (ch === ".") out += rect(x - 3, y - 3, 6, 6, "#b8925a");
        if (ch === "X") out += disc(x, y, s * 0.45, colour(true));
        if (ch === "O") out += disc(x, y, s * 0.45, colour(false));
        if (ch === "#") out += '<g opacity="0.55">' + disc(x, y, s * 0.45, colour(true)) + "</g>";
      }
    }
    return svg(pad * 2 + w * s, pad * 2 + rows.length * s, out);
  }

  // Chess (OpenSpiel prints its position as FEN): the board, White at the bottom, the pieces
  // as Unicode chess symbols, files and ranks labelled, the side to move under it.
  function drawChess(fen) {
    var fields = fen.trim().split(/\s+/), ranks = fields[0].split("/"), s = 40, pad = 18, out = "";
    var glyph = { K: "\u2654", Q: "\u2655", R: "\u2656", B: "\u2657", N: "\u2658", P: "\u2659",
                  k: "\u265a", q: "\u265b", r: "\u265c", b: "\u265d", n: "\u265e", p: "\u265f" };
    ranks.forEach(function (rank, r) {
      var c = 0;
      rank.split("").forEach(function (ch) {
        if (/[1-8]/.test(ch)) { c += parseInt(ch, 10); return; }
        c += 1;
        var x = pad + (c - 1) * s, y = pad + r * s;
        out += '<text x="' + (x + s / 2) + '" y="' + (y + s * 0.78) + '" font-size="' + (s * 0.8) + '" text-anchor="middle">' + (glyph[ch] || "?") + "</text>";
      });
    });
    var squares = "";
    for (var r = 0; r < 8; r++) {
      for (var c = 0; c < 8; c++) {
        squares += rect(pad + c * s, pad + r * s, s, s, (r + c) % 2 ? "#b58863" : "#f0d9b5");
      }
      squares += label(pad / 2, pad + r * s + s * 0.6, 8 - r);
      squares += label(pad + r * s + s / 2, pad + 8 * s + 13, "abcdefgh"[r]);
    }
    var side = fields[1] === "b" ? "Black to move" : "White to move";
    return svg(pad * 2 + 8 * s, pad * 2 + 8 * s + 16, squares + out + label(pad + 4 * s, pad * 2 + 8 * s + 12, side));
  }

  // OpenSpiel's games: the position as OpenSpiel prints it (chess drawn from its FEN).
  function drawOpenSpiel(text) {
    if (/^([1-8pnbrqkPNBRQK]+\/){7}[1-8pnbrqkPNBRQK]+ [wb] /.test(text.trim())) {
      return drawChess(text);
    }
    var shown = text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
    return '<pre style="font-size:1.4em;line-height:1.2;margin:0">' + shown + "</pre>";
  }

  var draw = { othello: drawOthello, freckers: drawFreckers, colosseum: drawColosseum, tsumego: drawTsumego, openspiel: drawOpenSpiel };

  function show(k) {
    ply = Math.max(0, Math.min(k, positions.length - 1));
    var text = positions[ply];
    board.innerHTML = (draw[current.kind] || function () { return ""; })(text);
    positionText.textContent = text;
    slider.value = ply;
    status.textContent = ply === 0 ? "start" : "move " + ply + " of " + (positions.length - 1) + ": " + current.moves[ply - 1][1] + " " + current.moves[ply - 1][0];
    board.setAttribute("data-ply", ply);
    Array.prototype.forEach.call(moveList.children, function (li, i) { li.classList.toggle("current", i + 1 === ply); });
    // Keep the current move in view inside the list (not by scrolling the page).
    var li = moveList.children[ply - 1];
    if (li) moveList.scrollTop = li.offsetTop - moveList.offsetTop - moveList.clientHeight / 2;
  }

  function load(index, at) {
    current = games[index];
    select.value = index;
    positions = [current.start];
    current.moves.forEach(function (m) { positions.push(apply(positions[positions.length - 1], m[2])); });
    slider.max = positions.length - 1;
    moveList.innerHTML = "";
    current.moves.forEach(function (m, i) {
      var li = document.createElement("li");
      li.textContent = m[1] + " " + m[0];
      li.addEventListener("click", function () { show(i + 1); });
      moveList.appendChild(li);
    });
    result.textContent = current.title + ": " + current.result;
    board.setAttribute("data-game", index);
    show(at === "last" ? positions.length - 1 : (parseInt(at, 10) || 0));
  }

  games.forEach(function (g, i) {
    var o = document.createElement("option");
    o.value = i;
    o.textContent = g.title + " (" + g.result + ")";
    select.appendChild(o);
  });
  select.addEventListener("change", function () { load(parseInt(select.value, 10), 0); });
  slider.addEventListener("input", function () { show(parseInt(slider.value, 10)); });
  document.getElementById("first").addEventListener("click", function () { show(0); });
  document.getElementById("prev").addEventListener("click", function () { show(ply - 1); });
  document.getElementById("next").addEventListener("click", function () { show(ply + 1); });
  document.getElementById("last").addEventListener("click", function () { show(positions.length - 1); });
  document.addEventListener("keydown", function (e) {
    if (e.target && e.target.tagName === "SELECT") return;
    if (e.key === "ArrowRight") show(ply + 1);
    if (e.key === "ArrowLeft") show(ply - 1);
    if (e.key === "Home") show(0);
    if (e.key === "End") show(positions.length - 1);
  });

  // report.html#game=INDEX&ply=N|last opens a game at a move (what the browser test uses).
  var params = {};
  location.hash.replace(/^#/, "").split("&").forEach(function (kv) { var p = kv.split("="); if (p[0]) params[p[0]] = decodeURIComponent(p[1] || ""); });
  var start = Math.max(0, Math.min(games.length - 1, parseInt(params.game, 10) || 0));
  load(start, params.ply || 0);
  if (params.ply === "last") document.getElementById("last").click();
  // #...&only=viewer shows the viewer alone (a screenshot of it, a page to embed).
  if (params.only === "viewer") {
    var keep = [document.getElementById("games"), document.getElementById("games").nextElementSibling, document.getElementById("viewer")];
    Array.prototype.forEach.call(document.querySelector("main").children, function (el) { if (keep.indexOf(el) < 0) el.style.display = "none"; });
  } else if (params.game !== undefined) {
    document.getElementById("games").scrollIntoView();
  }
})();
