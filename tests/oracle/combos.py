# SPDX-License-Identifier: GPL-2.0-or-later
"""The oracle's combinations: the feature dimensions, which combinations
sqwave runs (and which it must refuse), a seeded all-pairs cover of them,
and the command lines of one combination."""
import itertools
import os
import random

US = 1000

# A wave's shape: (high, low, phase), None for "run.* left alone" (a 50 % wave
# of run.half_period's 500 us).
SHAPES = {
    "50": (500 * US, 500 * US, 0),
    "300/700": (300 * US, 700 * US, 0),
    "100/900": (100 * US, 900 * US, 0),
    "phase": (500 * US, 500 * US, 120 * US),
}
# The second and third lines' wave when the lines' waves differ: a 750 us
# period, which a 1 s grid.align is not a whole number of (docs/grid.md).
OTHER_LINE_WAVE = (250 * US, 500 * US)
LINES = {1: ["0"], 2: ["0", "3"], 3: ["0", "3", "4"]}
STIMULI = {
    # name: sim.* settings (and the write cost that makes a flood lose events)
    "plain": {"sim.stim_period": "1ms"},
    "jitter": {"sim.stim_period": "1ms", "sim.stim_jitter": "300us"},
    "bounce": {"sim.stim_period": "1ms", "sim.stim_bounce": "2", "sim.stim_bounce_gap": "3us"},
    # 5000 edges 20 us apart, answered at 100 us a write: the queue
    # overflows. Bounded, so that the sim's rings (16,384 stimulus changes)
    # hold the whole run even when a loaded machine never lets its history
    # writer run before the release.
    "flood": {"sim.stim_period": "20us", "sim.write_cost": "100us", "sim.stim_count": "5000"},
}

# The dimensions of a wave run and of a respond run; each value list is in
# the order the cover tries them.
WAVE_DIMS = {
    "shape": list(SHAPES),
    "lines": [1, 2, 3],
    "outputs": ["together", "per-cpu"],
    "linewaves": ["same", "differ"],
    "grid": ["monotonic", "realtime"],
    "loopback": ["off", "on"],
    "spin": ["0", "20us", "auto"],
    "warmup": ["0", "200ms"],
    "limits": ["none", "tmin/tmax"],
    "check_run": ["no", "yes"],
}
RESPOND_DIMS = {
    "mode": ["follow", "toggle", "pulse"],
    "edge": ["both", "rising", "falling"],
    "debounce": ["0", "30us"],
    "stimulus": list(STIMULI),
    "count": ["0", "400"],
    "warmup": ["0", "200ms"],
    "limits": ["none", "tmin/tmax", "response_max"],
    "irq_bound": ["0", "5us"],
}


def ncpus():
    return os.cpu_count() or 1


def wave_valid(c):
    """Whether sqwave runs wave combination @c (docs/lines.md, duty cycle,
    spin, loopback); the refused ones are refusals() below."""
    if c["lines"] == 1 and (c["outputs"] != "together" or c["linewaves"] != "same"):
        return False   # one line ignores both: not a combination of its own
    if c["outputs"] == "per-cpu" and c["lines"] > ncpus():
        return False
    if c["lines"] > 1 and (c["loopback"] == "on" or c["spin"] != "0"):
        return False
    if c["spin"] != "0" and c["shape"] in ("300/700", "100/900"):
        return False   # run.spin does not go with run.high/run.low
    if c["loopback"] == "on" and c["shape"] in ("300/700", "100/900"):
        return False   # nor does run.loopback (yet)
    if c["linewaves"] == "differ" and c["grid"] != "monotonic":
        return False   # a 750 us line on a 1 s grid: refused (issue 29 2.2)
    return True


def respond_valid(c):
    if c["mode"] == "pulse" and c["stimulus"] == "flood":
        return False   # a 50 us pulse per 20 us event: nothing but backlog
    return True


def _pairs(dims, combo):
    keys = list(dims)
    return {(a, combo[a], b, combo[b]) for a, b in itertools.combinations(keys, 2)}


def cover(dims, valid, rng):
    """A seeded all-pairs cover: every pair of values of two dimensions
    that some valid combination has, in at least one chosen combination;
    greedy, each step the valid combination that covers the most pairs
    not yet covered (ties broken by @rng)."""
    keys = list(dims)
    every = [dict(zip(keys, v)) for v in itertools.product(*(dims[k] for k in keys))]
    every = [c for c in every if valid(c)]
    rng.shuffle(every)
    todo = set()
    for c in every:
        todo |= _pairs(dims, c)
    chosen = []
    while todo:
        best, gain = None, 0
        for c in every:
            g = len(_pairs(dims, c) & todo)
            if g > gain:
                best, gain = c, g
        chosen.append(best)
        todo -= _pairs(dims, best)
    return chosen


def random_valid(dims, valid, rng):
    keys = list(dims)
    while True:
        c = {k: rng.choice(dims[k]) for k in keys}
        if valid(c):
            return c


def combinations(seed, n=None):
    """Combination dicts (each with "kind" and "id"): the all-pairs cover of
    the wave runs, then of the respond runs, then random valid ones until
    @n (all of the covers when @n is None or smaller than them)."""
    rng = random.Random(seed)
    out = [dict(c, kind="wave") for c in cover(WAVE_DIMS, wave_valid, rng)]
    out += [dict(c, kind="respond") for c in cover(RESPOND_DIMS, respond_valid, rng)]
    while n is not None and len(out) < n:
        if rng.random() < 0.6:
            out.append(dict(random_valid(WAVE_DIMS, wave_valid, rng), kind="wave"))
        else:
            out.append(dict(random_valid(RESPOND_DIMS, respond_valid, rng), kind="respond"))
    for i, c in enumerate(out):
        c["id"] = i
    return out


def line_waves(c):
    """Each line's (offset, high, low, phase) of wave combination @c."""
    high, low, phase = SHAPES[c["shape"]]
    out = []
    for i, off in enumerate(LINES[c["lines"]]):
        if i and c["linewaves"] == "differ":
            # run.phase is every line's phase (run.line_phase left empty)
            out.append((int(off), OTHER_LINE_WAVE[0], OTHER_LINE_WAVE[1], phase))
        else:
            out.append((int(off), high, low, phase))
    return out


def _us(ns):
    return "%dus" % (ns // US)


def wave_args(c):
    """The run options of wave combination @c (shared by run and check --run)."""
    high, low, phase = SHAPES[c["shape"]]
    a = []
    if c["shape"] in ("300/700", "100/900"):
        a += ["--high", _us(high), "--low", _us(low)]
    if phase:
        a += ["--phase", _us(phase)]
    if c["lines"] > 1:
        a += ["--line", ",".join(LINES[c["lines"]]), "--outputs", c["outputs"]]
        if c["linewaves"] == "differ":
            n = c["lines"] - 1
            a += ["--line-high", ",".join([_us(high)] + [_us(OTHER_LINE_WAVE[0])] * n),
                  "--line-low", ",".join([_us(low)] + [_us(OTHER_LINE_WAVE[1])] * n)]
        if c["outputs"] == "per-cpu":
            a += ["--cpus", ",".join(str(i) for i in range(c["lines"]))]
    if c["grid"] != "monotonic":
        a += ["--grid", c["grid"]]
    if c["loopback"] == "on":
        a += ["--loopback"]
    if c["spin"] != "0":
        a += ["--spin", c["spin"]]
    if c["warmup"] != "0":
        a += ["--warmup", c["warmup"]]
    if c["limits"] == "tmin/tmax":
        lo, hi = limits_of(c)
        a += ["--tmin", "%dns" % lo, "--tmax", "%dns" % hi]
    return a


def limits_of(c):
    """The tmin/tmax limits given: loose around the shortest and longest
    nominal, so that a run passes or fails as the machine was."""
    widths = [w for _, h, l, _ in line_waves(c) for w in (h, l)]
    return min(widths) * 6 // 10, max(widths) * 15 // 10


def respond_args(c):
    a = ["--respond-mode", c["mode"], "--edge", c["edge"]]
    if c["debounce"] != "0":
        a += ["--debounce", c["debounce"]]
    for k, v in STIMULI[c["stimulus"]].items():
        a += ["--set", "%s=%s" % (k, v)]
    if c["count"] != "0":
        a += ["--set", "sim.stim_count=%s" % c["count"]]   # after the stimulus's own
    if c["warmup"] != "0":
        a += ["--warmup", c["warmup"]]
    if c["irq_bound"] != "0":
        a += ["--irq-bound", c["irq_bound"]]
    if c["limits"] == "tmin/tmax":
        a += ["--tmin", "10us", "--tmax", "5ms"]
    elif c["limits"] == "response_max":
        a += ["--max-response", "300us"]
    return a


def describe(c):
    keys = WAVE_DIMS if c["kind"] == "wave" else RESPOND_DIMS
    return "%s %s" % (c["kind"], " ".join("%s=%s" % (k, c[k]) for k in keys))


# Combinations sqwave must refuse, exit 2, with a message naming what is
# wrong: (name, extra options of a wave run or "respond", words the message
# must have, the issue 29 item that made sqwave refuse it).
REFUSALS = [
    ("respond_with_several_lines", ["respond", "--line", "0,3"], ["gpio.line"], None),
    ("loopback_with_several_lines", ["--line", "0,3", "--loopback"],
     ["run.loopback", "gpio.line"], None),
    ("spin_with_several_lines", ["--line", "0,3", "--spin", "20us"], ["run.spin"], None),
    ("spin_with_a_duty_cycle", ["--high", "300us", "--low", "700us", "--spin", "20us"],
     ["run.spin"], None),
    ("loopback_with_a_duty_cycle", ["--high", "300us", "--low", "700us", "--loopback"],
     ["run.loopback"], None),
    ("per_cpu_with_more_lines_than_cpus",
     ["--line", ",".join(str(i) for i in [0, 3, 4, 5][:min(4, ncpus() + 1)]), "--outputs", "per-cpu"],
     ["CPU"], None),
    ("a_line_period_off_the_grid",
     ["--line", "0,3", "--line-high", "250us,500us", "--line-low", "500us,500us",
      "--grid", "realtime"], ["grid.align"], "2.2"),
    ("the_loopback_input_as_an_output", ["--line", "0,1"], ["loopback"], "2.8"),
    ("respond_output_on_its_input", ["respond", "--line", "2"], ["gpio.line", "input.line"],
     "2.13"),
    ("respond_input_on_its_output", ["respond", "--input-line", "0"],
     ["gpio.line", "input.line"], "2.13"),
]
