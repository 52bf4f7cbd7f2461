#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# sqwave against sigrok-cli, edge for edge: sigrok sessions of both format
# versions (written here from the format's documentation: metadata spellings,
# rates, probe counts, mixed logic and analog), read by `sqwave analyze --csv`
# and by sigrok-cli's timing decoder. Skipped where sigrok-cli is not
# installed (Debian package sigrok-cli; scripts/install-deps sigrok-cli).
# Usage: SQWAVE=build/sqwave tests/e2e/sigrok.sh   (prints PASS/FAIL/SKIP lines)
. "$(dirname "$0")/lib.sh" sqwave-sigrok
KEEP_TMP=${KEEP_TMP:-${KEEP:-}}   # this script's KEEP=1 keeps $TMP, as KEEP_TMP=1 does

if ! command -v sigrok-cli > /dev/null; then
	echo "SKIP sigrok e2e: sigrok-cli not installed (scripts/install-deps sigrok-cli)"
	exit 0
fi

cat > "$TMP/gen.py" <<'PY'
"""Sessions as sigrok writes them: a zip with 'version', an INI 'metadata'
([device 1], capturefile, total probes, samplerate, probeN, unitsize) and the
samples, unitsize bytes each, bit k = probe k+1, little-endian."""
import random, struct, sys, zipfile

def session(path, version, md, samples, unitsize, analog=None):
    data = b"".join(s.to_bytes(unitsize, "little") for s in samples)
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("version", str(version))
        z.writestr("metadata", md)
        if version == 1:
            z.writestr("logic-1", data)            # one file, no chunk number
        else:
            step = max(unitsize, (len(data) // 3) // unitsize * unitsize)
            for k, at in enumerate(range(0, len(data), step)):
                z.writestr(f"logic-1-{k + 1}", data[at:at + step])
        if analog:
            idx, values = analog
            z.writestr(f"analog-1-{idx}-1", b"".join(struct.pack("<f", v) for v in values))

def wave(n, probe, seed):
    """Samples where @probe toggles at random intervals; the others noise."""
    rng = random.Random(seed)
    out, lv, left = [], 0, rng.randrange(5, 400)
    for i in range(n):
        left -= 1
        if left == 0:
            lv ^= 1
            left = rng.randrange(1, 400)
        s = rng.getrandbits(16) & ~(1 << probe)
        out.append(s | (lv << probe))
    return out

def md(kv, blanks):
    eq = " = " if blanks else "="
    return "\n".join(f"{k}{eq}{v}" if k[0] != "[" else k for k, v in kv) + "\n"

name = sys.argv[1]
n = 20000
if name == "v2-plain":
    kv = [("[global]", ""), ("sigrok version", "0.5.2"), ("[device 1]", ""), ("capturefile", "logic-1"),
          ("total probes", 8), ("samplerate", "1 MHz"), ("total analog", 0)]
    kv += [(f"probe{k}", f"D{k - 1}") for k in range(1, 9)] + [("unitsize", 1)]
    session(sys.argv[2], 2, md(kv, False), [s & 0xff for s in wave(n, 5, 1)], 1)
elif name == "v2-blanks-odd-rate":
    kv = [("[global]", ""), ("sigrok version", "0.5.2"), ("[device 1]", ""), ("capturefile", "logic-1"),
          ("total probes", 8), ("samplerate", "1.515151 MHz"), ("total analog", 0)]
    kv += [(f"probe{k}", f"D{k - 1}") for k in range(1, 9)] + [("unitsize", 1)]
    session(sys.argv[2], 2, md(kv, True), [s & 0xff for s in wave(n, 3, 2)], 1)
elif name == "v1-mhz-miscased":
    kv = [("[global]", ""), ("sigrok version", "0.2.0"), ("[device 1]", ""), ("driver", "demo"),
          ("capturefile", "logic-1"), ("unitsize", 1), ("total probes", 8), ("samplerate", "2 mHz")]
    kv += [(f"probe{k}", f"D{k - 1}") for k in range(1, 9)]
    session(sys.argv[2], 1, md(kv, True), [s & 0xff for s in wave(n, 6, 3)], 1)
elif name == "v1-12.5MHz":
    kv = [("[device 1]", ""), ("capturefile", "logic-1"), ("unitsize", 1), ("total probes", 8),
          ("samplerate", "12.500000 MHz")] + [(f"probe{k}", f"D{k - 1}") for k in range(1, 9)]
    session(sys.argv[2], 1, md(kv, True), [s & 0xff for s in wave(n, 0, 4)], 1)
elif name == "v2-16-probes-in-a-byte":
    kv = [("[device 1]", ""), ("capturefile", "logic-1"), ("total probes", 16), ("samplerate", "1MHz"),
          ("unitsize", 1)] + [(f"probe{k}", f"D{k - 1}") for k in range(1, 17)]
    session(sys.argv[2], 2, md(kv, False), [s & 0xff for s in wave(n, 7, 5)], 1)
elif name == "v2-unitsize-2":
    kv = [("[device 1]", ""), ("capturefile", "logic-1"), ("total probes", 16), ("samplerate", "24 MHz"),
          ("unitsize", 2)] + [(f"probe{k}", f"D{k - 1}") for k in range(1, 17)]
    session(sys.argv[2], 2, md(kv, False), wave(n, 12, 6), 2)
elif name == "v2-mixed":
    kv = [("[device 1]", ""), ("capturefile", "logic-1"), ("total probes", 4), ("samplerate", "250 kHz"),
          ("total analog", 1), ("probe1", "D0"), ("probe2", "D1"), ("probe3", "D2"), ("probe4", "D3"),
          ("analog5", "A0"), ("unitsize", 1)]
    session(sys.argv[2], 2, md(kv, False), [s & 0xf for s in wave(n, 2, 7)], 1,
            analog=(5, [3.3 * ((i // 37) & 1) for i in range(n)]))
elif name in ("v2-lost-chunk", "v1-bare-beside-chunks"):
    # what sigrok reads of a damaged session: chunks 1, 2 then a hole (chunk 4
    # is not read), or a bare "logic-1" beside chunks (read alone)
    kv = [("[device 1]", ""), ("capturefile", "logic-1"), ("total probes", 8), ("samplerate", "3 MHz"),
          ("unitsize", 1)] + [(f"probe{k}", f"D{k - 1}") for k in range(1, 9)]
    data = bytes(s & 0xff for s in wave(n, 4, 8))
    q = len(data) // 4
    with zipfile.ZipFile(sys.argv[2], "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("version", "2" if name[1] == "2" else "1")
        z.writestr("metadata", md(kv, False))
        if name == "v2-lost-chunk":
            for k in (1, 2, 4):
                z.writestr(f"logic-1-{k}", data[(k - 1) * q:k * q])
        else:
            z.writestr("logic-1-1", data[:q])
            z.writestr("logic-1", data[q:])
PY

# The samples where channel @2 changes, by sigrok-cli's timing decoder: each
# annotation runs from one edge to the next.
sigrok_edges() {
	sigrok-cli -i "$1" -P "timing:data=$2" -A timing=time --protocol-decoder-samplenum 2> "$TMP/sr.err" |
		python3 -c '
import sys
e = set()
for line in sys.stdin:
    a, b = line.split(" ", 1)[0].split("-")
    e.add(int(a)); e.add(int(b))
print("\n".join(str(x) for x in sorted(e)))'
}

# The same, by sqwave: each edge's time times the sample rate.
sqwave_edges() {
	"$SQWAVE" analyze "$1" --channel "$2" --quiet --json "$TMP/a.json" --csv "$TMP/a.csv" 2> "$TMP/sq.err" ||
		return 1
	python3 - "$TMP/a.json" "$TMP/a.csv" <<'PY'
import csv, json, sys
rate = json.load(open(sys.argv[1]))["source"]["capture"]["samplerate_hz"]
start = json.load(open(sys.argv[1]))["source"]["capture"]["start_ns"]
for r in csv.DictReader(open(sys.argv[2])):
    print(round(float(r["t_s"]) * rate))
PY
}

check() {
	local name=$1 ch=$2 want
	python3 "$TMP/gen.py" "$name" "$TMP/$name.sr" || return 1
	sigrok_edges "$TMP/$name.sr" "$ch" > "$TMP/$name.sigrok" || return 1
	[ -s "$TMP/$name.sigrok" ] || { echo "    sigrok-cli read nothing: $(cat "$TMP/sr.err")" >&2; return 1; }
	sqwave_edges "$TMP/$name.sr" "$ch" > "$TMP/$name.sqwave" ||
		{ echo "    sqwave: $(cat "$TMP/sq.err")" >&2; return 1; }
	if ! cmp -s "$TMP/$name.sigrok" "$TMP/$name.sqwave"; then
		echo "    $name $ch: $(wc -l < "$TMP/$name.sigrok") edges by sigrok-cli," \
		     "$(wc -l < "$TMP/$name.sqwave") by sqwave; first difference:" >&2
		diff "$TMP/$name.sigrok" "$TMP/$name.sqwave" | head -4 >&2
		return 1
	fi
}

test_format_2_session() { check v2-plain D5; }
test_format_2_with_blanks_and_a_rate_of_1_515151_MHz() { check v2-blanks-odd-rate D3; }
test_format_1_session_with_a_miscased_2_mHz() { check v1-mhz-miscased D6; }
test_format_1_session_at_12_500000_MHz() { check v1-12.5MHz D0; }
test_sixteen_probes_in_one_byte_samples() { check v2-16-probes-in-a-byte D7; }
test_two_byte_samples() { check v2-unitsize-2 D12; }
test_the_logic_channel_of_a_mixed_session() { check v2-mixed D2; }
test_a_session_that_lost_a_chunk() { check v2-lost-chunk D4; }
test_a_bare_logic_1_beside_chunks() { check v1-bare-beside-chunks D4; }

e2e_run --subshell --short --prefix "sigrok: " "sigrok e2e"
