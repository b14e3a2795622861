"""Solve the same problems with Clash and with peer tools; print answers and time ratios.

Usage: compare.py HARNESSES MATRIX.json TURN.json DUEL.json
  HARNESSES is the folder of the release timing harnesses: `peers` (clash-analysis: matrix
  games), `peers_iron_triangle`, `peers_triforce` and `peers_wicked_age` (each game's crate);
  MATRIX.json is the Iron Triangle 13x13 move game (from `clash solve iron-triangle moves`);
  TURN.json is a turn state (bench/peers/it13.json) whose whole two-stage turn is compared;
  DUEL.json is a duel state (crates/iron-triangle/data/duel.json) whose whole duel is compared.
"""

import json
import signal
import subprocess
import sys
import time
import warnings
from fractions import Fraction

import icepool
import nashpy
import numpy as np
try:
    import pygambit as gbt
except ImportError:  # reported below; run.sh installs it
    gbt = None

warnings.filterwarnings("ignore")
HARNESSES, MATRIX, TURN, DUEL = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
# Which harness answers each problem: the generic one, or the game's own.
HARNESS_OF = {
    "matrix": "peers",
    "moves": "peers_iron_triangle",
    "turn": "peers_iron_triangle",
    "turn-games": "peers_iron_triangle",
    "duel": "peers_iron_triangle",
    "triforce": "peers_triforce",
    "wicked": "peers_wicked_age",
}


def rust(*args):
    harness = f"{HARNESSES}/{HARNESS_OF[args[0]]}"
    out = subprocess.run([harness, *map(str, args)], check=True, capture_output=True, text=True).stdout
    return json.loads(out)


def timed(fn, min_seconds=0.5, max_reps=200, warmup=True):
    """Mean seconds per call (at least one call, up to max_reps or min_seconds)."""
    result = fn() if warmup else None
    reps, start = 0, time.perf_counter()
    while reps < max_reps and (reps == 0 or time.perf_counter() - start < min_seconds):
        result = fn()
        reps += 1
    return result, (time.perf_counter() - start) / reps


# --- In A Wicked Age exchanges (spec section 10) with icepool -------------------------------

def value_die(form, bonus):
    """A pool's value (P, T) encoded as P*100 + T: High + bonus dice, Low (WA-11)."""
    dice = [icepool.d(s) for s in form] + [icepool.d(s) for s in bonus]
    nf = len(form)

    def value(*faces):
        f = sorted(faces[:nf], reverse=True)
        high, low = f[0], (f[1] if nf > 1 else 0)
        return (high + sum(faces[nf:])) * 100 + low

    return icepool.map(value, *dice)


def band(a, c):
    (ap, at), (cp, ct) = divmod(a, 100), divmod(c, 100)
    if ap >= 2 * cp:
        return 0  # challenger knocked out
    if (ap, at) >= (cp, ct):
        return 1  # answerer takes the Advantage die
    if 2 * ap > cp:
        return 2  # challenger takes the Advantage die
    return 3  # answerer knocked out


def final_band(a, c):
    return 0 if divmod(a, 100) >= divmod(c, 100) else 1


def parse(pool):
    form, bonus = [], []
    for t in pool.split("+"):
        if t in ("adv", "owe"):
            bonus.append(6)
        elif t.startswith("d"):
            form.append(int(t[1:]))
        else:
            bonus.append(int(t[1:]))
    return form, bonus


def fractions_of(die, outcomes):
    denom = die.denominator()
    return [str(Fraction(die.quantity(o), denom)) if o in die else "0" for o in outcomes]


def icepool_exchange(answer, challenge, rnd):
    a, c = value_die(*parse(answer)), value_die(*parse(challenge))
    if rnd >= 3:
        return fractions_of(icepool.map(final_band, a, c), [0, 1])
    return fractions_of(icepool.map(band, a, c), [0, 1, 2, 3])


# --- Triforce combat with icepool ------------------------------------------------------------

def keyed(gear):
    # TF-24/TF-25: totals, with ties broken by rank (sword 2, plain 1, shield 0).
    if gear == "sword":
        return (icepool.d12 + icepool.d12).map(lambda t: t * 3 + 2)
    if gear == "shield":
        return icepool.d20.map(lambda t: t * 3)
    return icepool.d12.map(lambda t: t * 3 + 1)


def icepool_combat(gears):
    dice = [keyed(g) for g in gears]
    out = []
    for i in range(len(gears)):
        loses = icepool.map(lambda *k, i=i: k[i] == min(k), *dice)
        out.append(str(Fraction(loses.quantity(True), loses.denominator())) if True in loses else "0")
    return out


def norm(fr):
    return [str(Fraction(f)) for f in fr]


rows = []


def report(problem, ours, theirs, same, t_ours, t_theirs, target):
    ratio = t_theirs / t_ours if t_ours > 0 else float("inf")
    rows.append((problem, ours, theirs, "yes" if same else "NO", t_ours, t_theirs, ratio, target, ratio >= target))


REPEAT = 2000
for answer, challenge, rnd, label in [
    ("d10+d6", "d12+d8", 1, "WA P1 exchange"),
    ("d10+d6", "d12+d8", 3, "WA P3 round 3"),
    ("d12+d8", "d10+d6", 1, "WA P4 exchange"),
    ("d8+d4+adv", "d12+d8", 1, "WA P5 with Advantage"),
    ("d10+d8", "d6+d6+b8", 1, "WA P6 with strength"),
    ("d6+d6", "d6+d6", 1, "WA P7 exchange"),
]:
    r = rust("wicked", answer, challenge, rnd, REPEAT)
    theirs, t = timed(lambda: icepool_exchange(answer, challenge, rnd), max_reps=20)
    report(label, " / ".join(r["answer"]), " / ".join(theirs), norm(r["answer"]) == norm(theirs), r["seconds"], t, 20)

for gears in [["plain", "plain"], ["sword", "shield"], ["sword", "shield", "plain"], ["plain", "plain", "plain", "plain"]]:
    r = rust("triforce", ",".join(gears), REPEAT)
    theirs, t = timed(lambda: icepool_combat(gears), max_reps=10)
    report("Triforce " + "+".join(gears), " / ".join(r["answer"]), " / ".join(theirs), norm(r["answer"]) == norm(theirs), r["seconds"], t, 20)

# --- Iron Triangle 13x13 move game: nashpy and pygambit -------------------------------------

A = json.load(open(MATRIX))
M = np.array(A, dtype=float)
r = rust("matrix", MATRIX, 20000)
ours_value = r["value_decimal"]


def nash_value(eq):
    s, t = eq
    return float(np.asarray(s) @ M @ np.asarray(t))


game = nashpy.Game(M)
candidates = {}
if hasattr(game, "linear_program"):
    candidates["linear_program"] = lambda: game.linear_program()
candidates["lemke_howson"] = lambda: game.lemke_howson(initial_dropped_label=0)
nash_times = {}
nash_values = {}


class TooSlow(Exception):
    pass


def alarm(signum, frame):
    raise TooSlow("no answer within 20 s (Lemke-Howson can cycle on degenerate games)")


signal.signal(signal.SIGALRM, alarm)
for name, fn in candidates.items():
    try:
        signal.alarm(20)
        eq, t = timed(fn, max_reps=50)
        signal.alarm(0)
        value = nash_value(eq)
        if not np.isfinite(value):
            raise ValueError("no equilibrium found")
        nash_times[name], nash_values[name] = t, value
    except Exception as e:  # a method that fails on this game is not applicable
        signal.alarm(0)
        print(f"nashpy {name}: not applicable here: {e}", file=sys.stderr)
fastest = min(nash_times, key=nash_times.get)
report(
    f"IT 13x13 value vs nashpy {fastest}",
    f"{r['value']} = {ours_value:.12f}",
    f"{nash_values[fastest]:.12f}",
    abs(nash_values[fastest] - ours_value) < 1e-9,
    r["seconds_f64"],
    nash_times[fastest],
    100,
)

if gbt is None:
    print("pygambit is not installed: its rows are missing", file=sys.stderr)
else:
    g = gbt.Game.from_arrays([[Fraction(x) for x in row] for row in A], [[Fraction(-x) for x in row] for row in A])


    def gambit(solver, **kw):
        res = solver(g, **kw)
        eqs = res.equilibria if hasattr(res, "equilibria") else res
        return float(eqs[0].payoff(list(g.players)[0]))


    lcp_value, t_lcp = timed(lambda: gambit(gbt.nash.lcp_solve, rational=False), max_reps=50)
    report("IT 13x13 value vs pygambit lcp_solve", f"{ours_value:.12f}", f"{lcp_value:.12f}", abs(lcp_value - ours_value) < 1e-9, r["seconds_f64"], t_lcp, 10)
    try:
        lp_value, t_lp = timed(lambda: gambit(gbt.nash.lp_solve, rational=False), max_reps=50)
        report("IT 13x13 value vs pygambit lp_solve", f"{ours_value:.12f}", f"{lp_value:.12f}", abs(lp_value - ours_value) < 1e-9, r["seconds_f64"], t_lp, 1)
    except Exception as e:
        print(f"pygambit lp_solve: {e}", file=sys.stderr)
    def gambit_exact():
        res = gbt.nash.lcp_solve(g, rational=True)
        eqs = res.equilibria if hasattr(res, "equilibria") else res
        return Fraction(str(eqs[0].payoff(list(g.players)[0])))

    lcp_exact, t_lcp_exact = timed(gambit_exact, max_reps=20)
    report("IT 13x13 exact: clash rational vs gambit rational LCP", r["value"], str(lcp_exact), Fraction(r["value"]) == lcp_exact, r["seconds_exact"], t_lcp_exact, 1)


# --- Iron Triangle two-stage turn and whole duel: the same pipelines in nashpy and pygambit ----


def nash_value_of(matrix):
    """The value of a zero-sum game with nashpy (its linear program when it has one)."""
    m = np.array(matrix, dtype=float)
    g = nashpy.Game(m)
    if hasattr(g, "linear_program"):
        s = g.linear_program()
    else:
        s = g.lemke_howson(initial_dropped_label=0)
    return float(np.asarray(s[0]) @ m @ np.asarray(s[1]))


def gambit_value_of(matrix):
    """The value of a zero-sum game with pygambit's linear program (floats)."""
    rows = [[Fraction(x) if isinstance(x, int) else x for x in r] for r in matrix]
    g = gbt.Game.from_arrays(rows, [[-x for x in r] for r in rows])
    res = gbt.nash.lp_solve(g, rational=False)
    eqs = res.equilibria if hasattr(res, "equilibria") else res
    return float(eqs[0].payoff(list(g.players)[0]))


def two_stage(games, rows, cols, solve):
    """A turn's value: solve every move game, then the stance game of their values."""
    values = [solve(m) for m in games]
    stance = [values[i * cols:(i + 1) * cols] for i in range(rows)]
    return solve(stance)


def duel(stages, solve):
    """A duel's value: every state's stage game (stance game of move games), the start last."""
    value = None
    for stage in stages:
        stance = [[solve(m) for m in row] for row in stage]
        value = solve(stance)
    return value


turn = rust("turn", TURN, 200)
tg = rust("turn-games", TURN)
clash_turn = float(Fraction(turn["value"]))
peers = [("nashpy", nash_value_of)] + ([("pygambit", gambit_value_of)] if gbt is not None else [])
for name, solve in peers:
    try:
        v, t = timed(lambda: two_stage(tg["games"], tg["rows"], tg["cols"], solve), max_reps=3)
        report(f"IT two-stage turn (169 games), exact vs {name}", f"{turn['value']} = {clash_turn:.9f}", f"{v:.9f}", abs(v - clash_turn) < 1e-7, turn["seconds"], t, 30)
    except Exception as e:
        print(f"{name} two-stage turn: {e}", file=sys.stderr)

d = rust("duel", DUEL, 20)
games = sum(len(row) for stage in d["stages"] for row in stage)
for name, solve in peers:
    try:
        v, t = timed(lambda: duel(d["stages"], solve), max_reps=1, warmup=False)
        report(f"IT whole duel ({d['states']} states, {games} move games) vs {name}", f"{d['value']:.9f}", f"{v:.9f}", abs(v - d["value"]) < 1e-7, d["seconds"], t, 30)
    except Exception as e:
        print(f"{name} whole duel: {e}", file=sys.stderr)


def us(s):
    return f"{s * 1e6:,.1f} µs"


print(f"{'problem':<46} {'same':>4} {'clash':>12} {'peer':>12} {'ratio':>9} {'target':>7}  met")
for problem, ours, theirs, same, t1, t2, ratio, target, met in rows:
    print(f"{problem:<46} {same:>4} {us(t1):>12} {us(t2):>12} {ratio:>8.1f}x {target:>6}x  {'yes' if met else 'NO'}")
print()
for problem, ours, theirs, same, *_ in rows:
    print(f"{problem}\n    clash: {ours}\n    peer:  {theirs}")
print(f"\nclash f64 solve of the 13x13 game: {us(r['seconds_f64'])}; exact rational solve: {us(r['seconds_exact'])}")
ok = all(row[3] == "yes" for row in rows)
print("all answers agree" if ok else "SOME ANSWERS DIFFER")
sys.exit(0 if ok else 1)
