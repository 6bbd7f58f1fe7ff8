// Calibration aid for the Othello report's SimpleMCTS budget (see experiments/othello-ga-table1.toml).
//
// The report's agent ran in JavaScript inside the course's browser arena with 10 s per game. This
// script measures how many uniform random playouts from the standard 8x8 start a plain JavaScript
// implementation, written the way arena code usually is (a flat array board, legal moves found by
// scanning all cells in 8 directions, a new move list per ply), plays per second in Node.
// Run: node tools/othello-js-playouts.js [seconds]
"use strict";
const N = 8;
const DIRS = [[-1, -1], [-1, 0], [-1, 1], [0, -1], [0, 1], [1, -1], [1, 0], [1, 1]];

function start() {
  const b = new Array(N * N).fill(0);
  b[3 * N + 3] = 2; b[4 * N + 4] = 2; b[3 * N + 4] = 1; b[4 * N + 3] = 1;
  return b;
}

function flips(b, r, c, me) {
  const opp = 3 - me;
  const out = [];
  for (const [dr, dc] of DIRS) {
    let rr = r + dr, cc = c + dc;
    const line = [];
    while (rr >= 0 && rr < N && cc >= 0 && cc < N && b[rr * N + cc] === opp) {
      line.push(rr * N + cc);
      rr += dr; cc += dc;
    }
    if (line.length && rr >= 0 && rr < N && cc >= 0 && cc < N && b[rr * N + cc] === me) {
      out.push(...line);
    }
  }
  return out;
}

function validMoves(b, me) {
  const moves = [];
  for (let r = 0; r < N; r++) {
    for (let c = 0; c < N; c++) {
      if (b[r * N + c] === 0 && flips(b, r, c, me).length > 0) moves.push([r, c]);
    }
  }
  return moves;
}

function playout(b, me) {
  let passes = 0;
  while (passes < 2) {
    const moves = validMoves(b, me);
    if (moves.length === 0) {
      passes++;
    } else {
      passes = 0;
      const [r, c] = moves[Math.floor(Math.random() * moves.length)];
      for (const i of flips(b, r, c, me)) b[i] = me;
      b[r * N + c] = me;
    }
    me = 3 - me;
  }
  let black = 0, white = 0;
  for (const v of b) { if (v === 1) black++; else if (v === 2) white++; }
  return Math.sign(black - white);
}

const seconds = Number(process.argv[2] || 5);
const s = start();
for (let i = 0; i < 2000; i++) playout(s.slice(), 1); // warm the JIT
const t0 = process.hrtime.bigint();
let games = 0;
while (Number(process.hrtime.bigint() - t0) / 1e9 < seconds) {
  for (let i = 0; i < 100; i++) playout(s.slice(), 1);
  games += 100;
}
const elapsed = Number(process.hrtime.bigint() - t0) / 1e9;
console.log(`node ${process.version}: ${games} playouts in ${elapsed.toFixed(2)} s = ${Math.round(games / elapsed)} playouts/s`);
