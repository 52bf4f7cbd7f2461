#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Hostile captures and careless use of analyze/compare with captures (the
# classes seen in the wild, and those that already hold): generated inputs, bounds checked with
# ulimit and timeout, never with timing assertions.
# Usage: SQWAVE=build/sqwave tests/hostile/captures.sh   (prints PASS/FAIL lines)
. "$(dirname "$0")/../e2e/lib.sh" sqwave-hostile-cap

# rc is one of the contract's classes: never a signal (128+), never a crash
rc_in() { local rc=$1; shift; for ok in "$@"; do [ "$rc" -eq "$ok" ] && return 0; done; return 1; }
jget() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print($2)" "$1"; }

# Memory limits mean nothing under ASan (it reserves terabytes of shadow):
# those checks only run on a plain build.
limits_ok=1
( ulimit -v 400000; "$SQWAVE" --version ) > /dev/null 2>&1 || limits_ok=0

# ---- generators -------------------------------------------------------------
cat > "$TMP/gen.py" <<'PY'
import random, struct, sys, zipfile, zlib

def log(path, n, half=500000, seed=1, t0=10**12):
    """A sqwave log (format 1) of n edges woken 2..22 us late; returns the
    write-window midpoints."""
    rng = random.Random(seed)
    text = f"sqwave.version=test\nrun.half_period={half}ns\n".encode()
    roff = (56 + len(text) + 31) // 32 * 32
    mids = []
    with open(path, "wb") as f:
        f.write(b"SQWAVLOG" + struct.pack("<IIIIiIQQQ", 1, 32, roff, len(text), 1, 0, half, t0, 0))
        f.write(text + b"\0" * (roff - 56 - len(text)))
        buf = bytearray()
        for k in range(n):
            it = t0 + k * half
            wake = 2000 + rng.randrange(20000)
            wb, we = wake + 50, wake + 150 + rng.randrange(300)
            buf += struct.pack("<QQiiiHBB", k, it, wake, wb, we, 1, (k + 1) % 2, 0)
            mids.append(it + (wb + we) // 2)
            if len(buf) > 1 << 20:
                f.write(buf)
                buf = bytearray()
        f.write(buf)
        f.write(struct.pack("<QQQQQQiIQ", 2**64 - 1, 0x544F4F4656575153, n, 0, 0, 0, 0, 0, 0))
    return mids

def vcd_of(path, mids, level0=1, res=10):
    """What a 100 MSa/s analyzer records of those edges."""
    zero = mids[0] - 100000
    with open(path, "w") as f:
        f.write(f"$timescale {res} ns $end $scope module t $end $var wire 1 ! gpio $end "
                "$upscope $end $enddefinitions $end\n")
        f.write(f"#0 {1 - level0}!\n")
        lv = level0
        out = []
        for m in mids:
            out.append(f"#{(m - zero + res - 1) // res} {lv}!\n")
            lv ^= 1
            if len(out) > 65536:
                f.write("".join(out))
                out = []
        f.write("".join(out))

def sr(path, md, chunks, overlap=False):
    """A sigrok session; chunks: (name, bytes-or-generator of byte blocks)."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("version", "2")
        z.writestr("metadata", md)
        for name, data in chunks:
            if isinstance(data, (bytes, bytearray)):
                z.writestr(name, bytes(data))
            else:
                with z.open(name, "w", force_zip64=False) as w:
                    for block in data:
                        w.write(block)

cmd = sys.argv[1]
if cmd == "log":
    log(sys.argv[2], int(sys.argv[3]))
elif cmd == "logvcd":
    mids = log(sys.argv[2], int(sys.argv[4]))
    vcd_of(sys.argv[3], mids)
elif cmd == "wide-vcd":
    n = 20000
    with open(sys.argv[2], "w") as f:
        f.write("$timescale 1 ns $end\n$scope module top $end\n")
        f.write("".join(f"$var wire 1 s{k} sig{k} $end\n" for k in range(n)))
        f.write("$upscope $end\n$enddefinitions $end\n#0\n")
        f.write("".join(f"0s{k}\n" for k in range(n)))
        f.write("".join(f"#{t * 100}\n{t & 1}s{n - 1}\n" for t in range(1, 2000)))
elif cmd == "zeros-sr":
    # 512 probes, 256 MiB of zero samples: a 263 kB file
    md = "[device 1]\ncapturefile=logic-1\ntotal probes=512\nsamplerate=1 MHz\nunitsize=64\n"
    md += "".join(f"probe{k}=P{k - 1}\n" for k in range(1, 513))
    sr(sys.argv[2], md, [("logic-1-1", (bytes(1 << 20) for _ in range(256)))])
elif cmd == "toggle-sr":
    # toggles every sample: 64 MiB from a small file
    md = "[device 1]\ncapturefile=logic-1\ntotal probes=1\nsamplerate=100 MHz\nprobe1=D0\nunitsize=1\n"
    sr(sys.argv[2], md, [("logic-1-1", (b"\0\1" * (1 << 19) for _ in range(64)))])
elif cmd == "overlap-sr":
    md = "[device 1]\ncapturefile=logic-1\ntotal probes=1\nsamplerate=1 MHz\nprobe1=D0\nunitsize=1\n"
    sr(sys.argv[2], md, [("logic-1-1", bytes(4096))])
    raw = bytearray(open(sys.argv[2], "rb").read())
    eocd = raw.rfind(b"PK\5\6")
    n, size, off = struct.unpack_from("<HII", raw, eocd + 10)
    cd = raw[off:off + size]
    last = cd.rfind(b"PK\1\2")
    dup = bytearray(cd[last:])
    dup[46:46 + 9] = b"logic-1-2"
    tail = raw[eocd:]
    struct.pack_into("<HHII", tail, 8, n + 1, n + 1, size + len(dup), off)
    open(sys.argv[2], "wb").write(raw[:off] + cd + dup + tail)
elif cmd == "week-sr":
    # the issue's 5 Hz capture of 10,359 s, toggling every 1000 samples (200 s)
    n = 5 * 10359
    md = "[device 1]\ncapturefile=logic-1\ntotal probes=1\nsamplerate=5 Hz\nprobe1=D0\nunitsize=1\n"
    sr(sys.argv[2], md, [("logic-1-1", bytes((i // 1000) & 1 for i in range(n)))])
PY
gen() { python3 "$TMP/gen.py" "$@"; }

# ---- unbounded time or memory -------------------------------------------------

test_a_character_device_is_refused_at_once() {
	local dev
	for dev in /dev/zero /dev/urandom; do
		( ulimit -t 10; exec timeout 10 "$SQWAVE" analyze "$dev" ) > /dev/null 2> "$TMP/err"
		local rc=$?
		[ $rc -eq 2 ] || fail "$dev: exit $rc: $(cat "$TMP/err")" || return 1
		grep -q "character device" "$TMP/err" || fail "$dev: $(cat "$TMP/err")" || return 1
	done
}

test_zeros_from_a_pipe_are_refused_from_their_start_not_read_to_the_end() {
	timeout 20 bash -c "cat /dev/zero | \"$SQWAVE\" analyze -" > /dev/null 2> "$TMP/err"
	local rc=$?
	[ $rc -eq 2 ] || fail "exit $rc: $(cat "$TMP/err")" || return 1
	grep -q "not a format sqwave reads" "$TMP/err" || fail "$(cat "$TMP/err")" || return 1
}

test_a_capture_from_a_pipe_stdin_or_process_substitution_reads_like_the_file() {
	gen logvcd "$TMP/p.sqwlog" "$TMP/p.vcd" 3000 || return 1
	"$SQWAVE" analyze "$TMP/p.vcd" --quiet --json "$TMP/f.json" 2> "$TMP/err" ||
		fail "file: $(cat "$TMP/err")" || return 1
	"$SQWAVE" analyze - --quiet --json "$TMP/s.json" < "$TMP/p.vcd" 2> "$TMP/err" ||
		fail "-: $(cat "$TMP/err")" || return 1
	cat "$TMP/p.vcd" | "$SQWAVE" analyze /dev/stdin --quiet --json "$TMP/d.json" 2> "$TMP/err" ||
		fail "/dev/stdin: $(cat "$TMP/err")" || return 1
	"$SQWAVE" analyze <(cat "$TMP/p.vcd") --quiet --json "$TMP/ps.json" 2> "$TMP/err" ||
		fail "<(...): $(cat "$TMP/err")" || return 1
	local want got j
	want=$(jget "$TMP/f.json" 'd["counts"]["edges"], d["pulse_width"]["any"]["tmin"]["width_ns"]')
	[ -n "$want" ] && [ "${want%% *}" -gt 2000 ] || fail "the file: '$want'" || return 1
	for j in s d ps; do
		got=$(jget "$TMP/$j.json" 'd["counts"]["edges"], d["pulse_width"]["any"]["tmin"]["width_ns"]')
		[ "$got" = "$want" ] || fail "$j: $got, the file: $want" || return 1
	done
}

test_a_log_from_a_pipe_reads_like_the_file() {
	[ -f "$TMP/p.sqwlog" ] || gen log "$TMP/p.sqwlog" 3000 || return 1
	"$SQWAVE" analyze "$TMP/p.sqwlog" --quiet --json "$TMP/lf.json" 2> "$TMP/err" || return 1
	cat "$TMP/p.sqwlog" | "$SQWAVE" analyze - --quiet --json "$TMP/ls.json" 2> "$TMP/err" ||
		fail "$(cat "$TMP/err")" || return 1
	[ "$(jget "$TMP/ls.json" 'd["counts"]["edges"]')" = 3000 ] ||
		fail "counts: $(jget "$TMP/ls.json" 'd["counts"]["edges"]')" || return 1
}

test_choosing_among_20000_signals_is_one_pass() {
	gen wide-vcd "$TMP/wide.vcd" || return 1
	# two minutes before (one pass per silent signal); one pass is well under 10 s
	timeout 10 "$SQWAVE" analyze "$TMP/wide.vcd" --quiet --json "$TMP/w.json" 2> "$TMP/err"
	local rc=$?
	[ $rc -eq 0 ] || fail "exit $rc (124: timeout): $(cat "$TMP/err")" || return 1
	[ "$(jget "$TMP/w.json" 'd["source"]["capture"]["channel"]')" = "top.sig19999" ] ||
		fail "channel $(jget "$TMP/w.json" 'd["source"]["capture"]["channel"]')" || return 1
}

test_a_session_of_256_MiB_zeros_over_512_probes_is_read_once() {
	gen zeros-sr "$TMP/zeros.sr" || return 1
	( [ $limits_ok -eq 1 ] && ulimit -v 600000; exec timeout 30 "$SQWAVE" analyze "$TMP/zeros.sr" \
		--quiet --json "$TMP/z.json" ) 2> "$TMP/err"
	local rc=$?
	[ $rc -eq 0 ] || fail "exit $rc (124: timeout): $(cat "$TMP/err")" || return 1
	[ "$(jget "$TMP/z.json" 'd["source"]["capture"]["channel_reason"]')" = "no channel has edges; using the first" ] ||
		fail "$(jget "$TMP/z.json" 'd["source"]["capture"]')" || return 1
}

test_a_session_whose_entries_overlap_is_refused_as_a_zip_bomb() {
	gen overlap-sr "$TMP/bomb.sr" || return 1
	timeout 10 "$SQWAVE" analyze "$TMP/bomb.sr" > /dev/null 2> "$TMP/err"
	local rc=$?
	[ $rc -eq 2 ] || fail "exit $rc: $(cat "$TMP/err")" || return 1
	grep -q "overlap" "$TMP/err" || fail "$(cat "$TMP/err")" || return 1
}

test_compare_refuses_a_capture_that_toggles_every_sample_in_bounded_memory() {
	gen log "$TMP/small.sqwlog" 4000 || return 1
	gen toggle-sr "$TMP/toggle.sr" || return 1
	( [ $limits_ok -eq 1 ] && ulimit -v 400000; exec timeout 60 "$SQWAVE" compare \
		"$TMP/small.sqwlog" "$TMP/toggle.sr" ) > /dev/null 2> "$TMP/err"
	local rc=$?
	[ $rc -eq 2 ] || fail "exit $rc: $(cat "$TMP/err")" || return 1
	grep -q "over twice what the run has records" "$TMP/err" || fail "$(cat "$TMP/err")" || return 1
}

test_compare_holds_at_most_48_bytes_per_capture_edge() {
	[ $limits_ok -eq 1 ] || { echo "    (sanitizer build: memory limits skipped)"; return 0; }
	local n=1000000 base=4000 kb
	gen logvcd "$TMP/big.sqwlog" "$TMP/big.vcd" $n || return 1
	# RLIMIT_DATA counts the heap, not the mapped capture file: a constant
	# for the program and its libraries, and 48 bytes an edge
	kb=$((base + n * 48 / 1024))
	( ulimit -d $kb; exec timeout 120 "$SQWAVE" compare "$TMP/big.sqwlog" "$TMP/big.vcd" \
		--json "$TMP/big.json" ) > /dev/null 2> "$TMP/err"
	local rc=$?
	[ $rc -eq 0 ] || fail "exit $rc under ulimit -d $kb: $(tail -c 400 "$TMP/err")" || return 1
	[ "$(jget "$TMP/big.json" 'd["edges"]["paired"]')" = $n ] || fail "not every edge paired" || return 1
}

# ---- wrong numbers with exit 0 --------------------------------------------------

test_a_5_hz_capture_of_10359_s_does_not_wrap() {
	gen week-sr "$TMP/long.sr" || return 1
	"$SQWAVE" analyze "$TMP/long.sr" --quiet --json "$TMP/long.json" 2> "$TMP/err" ||
		fail "$(cat "$TMP/err")" || return 1
	# every pulse is 1000 samples of 200 ms: 200 s exactly, never negative
	[ "$(jget "$TMP/long.json" 'd["pulse_width"]["any"]["tmin"]["width_ns"], d["pulse_width"]["any"]["tmax"]["width_ns"]')" = \
		"200000000000 200000000000" ] || fail "$(jget "$TMP/long.json" 'd["pulse_width"]["any"]')" || return 1
	[ "$(jget "$TMP/long.json" 'd["source"]["capture"]["end_ps"]')" = 10359000000000000 ] ||
		fail "end $(jget "$TMP/long.json" 'd["source"]["capture"]["end_ps"]')" || return 1
}

test_tiny_sample_rates_give_exact_widths_or_a_refusal() {
	printf '0\n0\n1\n1\n0\n1\n' > "$TMP/bits.csv"
	"$SQWAVE" analyze "$TMP/bits.csv" --format sigrok --samplerate 0.001 --quiet \
		--json "$TMP/slow.json" 2> "$TMP/err" || fail "$(cat "$TMP/err")" || return 1
	# 1 ms Hz: 1000 s a sample; the pulses are 2000 s and 1000 s
	[ "$(jget "$TMP/slow.json" 'd["pulse_width"]["any"]["tmin"]["width_ns"], d["pulse_width"]["any"]["tmax"]["width_ns"]')" = \
		"1000000000000 2000000000000" ] || fail "$(jget "$TMP/slow.json" 'd["pulse_width"]["any"]')" || return 1
	"$SQWAVE" analyze "$TMP/bits.csv" --format sigrok --samplerate 1e-12 > /dev/null 2> "$TMP/err"
	local rc=$?
	[ $rc -eq 2 ] || fail "1e-12 Hz: exit $rc: $(cat "$TMP/err")" || return 1
	grep -q "53 days" "$TMP/err" || fail "$(cat "$TMP/err")" || return 1
}

test_absurd_rigol_start_or_increment_is_exit_2_with_the_line() {
	local hdr
	for hdr in "0.0,-1.0e-06" "1e300,1.0e-06" "0.0,0.0" "0.0,1e200"; do
		{ echo "X,CH1,Start,Increment,"; echo "Sequence,Volt,$hdr,"
		  for i in $(seq 0 99); do echo "$i,$(( (i / 10) % 2 * 3 )).3,"; done; } > "$TMP/rigol.csv"
		"$SQWAVE" analyze "$TMP/rigol.csv" > /dev/null 2> "$TMP/err"
		local rc=$?
		[ $rc -eq 2 ] || fail "$hdr: exit $rc: $(cat "$TMP/err")" || return 1
		grep -q "rigol.csv:2:" "$TMP/err" || fail "$hdr: $(cat "$TMP/err")" || return 1
	done
}

test_scope_time_backwards_constant_or_shuffled_is_exit_2() {
	python3 - "$TMP" <<'PY' || return 1
import random, sys
d = sys.argv[1]
lv = lambda i: "3.3" if (i // 20) % 2 else "0.0"
with open(f"{d}/back.csv", "w") as f:
    f.write("Time,CH1\n" + "".join(f"{(i if i != 50 else 45) * 1e-6:.7f},{lv(i)}\n" for i in range(200)))
with open(f"{d}/const.csv", "w") as f:
    f.write("Time,CH1\n" + "".join(f"0.0010000,{lv(i)}\n" for i in range(200)))
order = list(range(200)); random.Random(3).shuffle(order)
with open(f"{d}/shuf.csv", "w") as f:
    f.write("Time,CH1\n" + "".join(f"{i * 1e-6:.7f},{lv(i)}\n" for i in order))
PY
	local f
	for f in back const shuf; do
		"$SQWAVE" analyze "$TMP/$f.csv" > /dev/null 2> "$TMP/err"
		local rc=$?
		[ $rc -eq 2 ] || fail "$f: exit $rc: $(cat "$TMP/err")" || return 1
	done
	"$SQWAVE" analyze "$TMP/back.csv" 2>&1 | grep -q "back.csv:52:.*backwards" || fail "no line" || return 1
}

test_a_capture_truncated_while_read_is_never_a_sigbus() {
	gen logvcd "$TMP/t.sqwlog" "$TMP/t.vcd" 600000 || return 1
	local i rc
	for i in 1 2 3; do
		cp "$TMP/t.vcd" "$TMP/cut.vcd"
		"$SQWAVE" analyze "$TMP/cut.vcd" --quiet > /dev/null 2> "$TMP/err" &
		local pid=$!
		sleep 0.0$i
		truncate -s 65536 "$TMP/cut.vcd"
		wait $pid
		rc=$?
		# finished before the cut (0), saw it (3: "changed while being read", a
		# runtime condition) or read a file already cut short (2: a malformed
		# end); 135 would be SIGBUS
		rc_in $rc 0 2 3 || fail "exit $rc: $(cat "$TMP/err")" || return 1
		[ $rc -ne 3 ] || grep -q "the file changed (was truncated) while being read" "$TMP/err" ||
			fail "exit 3: $(cat "$TMP/err")" || return 1
	done
}

test_a_row_of_a_million_empty_fields_is_named_not_an_unterminated_quote() {
	{ echo "Time,CH1"; echo "0.0,0"; head -c 1000000 /dev/zero | tr '\0' ','; echo "1"; } > "$TMP/wide.csv"
	"$SQWAVE" analyze "$TMP/wide.csv" > /dev/null 2> "$TMP/err"
	local rc=$?
	[ $rc -eq 2 ] || fail "exit $rc: $(cat "$TMP/err")" || return 1
	grep -q "wide.csv:3: more than 65536 fields" "$TMP/err" || fail "$(cat "$TMP/err")" || return 1
}

# The header row itself too wide, in every CSV family: the message names the
# row (it said "no data rows" or "expected a header row"), in bounded memory.
test_a_header_row_of_70000_fields_is_named_in_every_csv_format() {
	local f rc lim=""
	python3 - "$TMP" <<'PY' || return 1
import sys
d, n = sys.argv[1], 70000
heads = {
    "w-sigrok.csv": "; CSV generated by libsigrok 0.5.2\n; Samplerate: 1 MHz\n" + ",".join(["logic"] * n),
    "w-scope.csv": "Time," + ",".join(f"C{i}" for i in range(n)),
    "w-saleae.csv": "Time [s]," + ",".join(f"Channel {i}" for i in range(n)),
    "w-dsview.csv": "; CSV, generated by DSView\nTime(s)," + ",".join(str(i) for i in range(n)),
}
for name, h in heads.items():
    open(f"{d}/{name}", "w").write(h + "\n0," + ",".join(["0"] * n) + "\n")
PY
	[ $limits_ok -eq 1 ] && lim="ulimit -v 400000;"
	for f in w-sigrok w-scope w-saleae w-dsview; do
		bash -c "$lim timeout 20 \"\$0\" analyze \"\$1\" --quiet" "$SQWAVE" "$TMP/$f.csv" \
			> /dev/null 2> "$TMP/err"
		rc=$?
		[ $rc -eq 2 ] || fail "$f: exit $rc: $(cat "$TMP/err")" || return 1
		grep -q "$f.csv:[0-9]*: more than 65536 fields in one row" "$TMP/err" ||
			fail "$f: $(cat "$TMP/err")" || return 1
	done
}

# A session that lost its data, or a chunk, is what sigrok reads of it: the
# data up to the hole (with a note), or a refusal; never 0 edges with exit 0.
test_a_session_that_lost_its_data_or_a_chunk_is_never_read_as_something_else() {
	python3 - "$TMP" <<'PY' || return 1
import sys, zipfile
d = sys.argv[1]
md = ("[device 1]\ncapturefile=logic-1\ntotal probes=1\nsamplerate=1 MHz\n"
      "probe1=D0\nunitsize=1\n")
a = bytes((i // 10) & 1 for i in range(100))      # edges at 10, 20, ..., 90
def session(name, chunks):
    with zipfile.ZipFile(f"{d}/{name}", "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("version", "2")
        z.writestr("metadata", md)
        for n, data in chunks:
            z.writestr(n, data)
session("nodata.sr", [])
session("renamed.sr", [("logic-2-1", a)])
session("gap.sr", [("logic-1-1", a), ("logic-1-3", a)])
PY
	local f rc
	for f in nodata renamed; do
		"$SQWAVE" analyze "$TMP/$f.sr" --quiet > /dev/null 2> "$TMP/err"
		rc=$?
		[ $rc -eq 2 ] || fail "$f: exit $rc: $(cat "$TMP/err")" || return 1
		grep -q "$f.sr: no logic data" "$TMP/err" || fail "$f: $(cat "$TMP/err")" || return 1
	done
	"$SQWAVE" analyze "$TMP/gap.sr" --quiet --json "$TMP/gap.json" 2> "$TMP/err" ||
		fail "gap: $(cat "$TMP/err")" || return 1
	[ "$(jget "$TMP/gap.json" 'd["counts"]["edges"]')" = 9 ] ||
		fail "gap: $(jget "$TMP/gap.json" 'd["counts"]')" || return 1
	jget "$TMP/gap.json" 'd["source"]["capture"]["notes"]' | grep -q "chunk 2 is missing" ||
		fail "gap: no note" || return 1
}

test_capture_tmin_tmax_bounds_include_the_sample_resolution() {
	[ -f "$TMP/p.vcd" ] || gen logvcd "$TMP/p.sqwlog" "$TMP/p.vcd" 3000 || return 1
	"$SQWAVE" analyze "$TMP/p.vcd" --quiet --json "$TMP/b.json" 2> "$TMP/err" || return 1
	# 10 ns samples: the edge is within 10 ns before its sample, so a width is
	# known to +-10 ns, not [x, x]
	python3 - "$TMP/b.json" <<'PY' || return 1
import json, sys
d = json.load(open(sys.argv[1]))
t = d["pulse_width"]["any"]["tmin"]
assert t["hi_ns"] - t["width_ns"] == 10 and t["width_ns"] - t["lo_ns"] == 10, t
PY
}

# A capture that starts between two ns (a VCD of 100 ps ticks from #5): each
# edge's printed time is its own time to the ns (10.8 ns was printed 10).
test_edges_of_a_capture_starting_between_two_ns_print_their_own_time() {
	printf '$timescale 100 ps $end $scope module t $end $var wire 1 ! a $end $upscope $end\n$enddefinitions $end\n#5 0!\n#108 1!\n#163 0!\n#200\n' > "$TMP/sub.vcd"
	"$SQWAVE" analyze "$TMP/sub.vcd" --quiet --csv "$TMP/sub.csv" 2> "$TMP/err" || fail "$(cat "$TMP/err")" || return 1
	[ "$(cut -d, -f3 "$TMP/sub.csv" | tail -n +2 | tr '\n' ' ')" = "0.000000011 0.000000016 " ] ||
		fail "$(cat "$TMP/sub.csv")" || return 1
}

# ---- classes that already hold --------------------------------------------------

test_cut_and_flipped_sessions_never_crash() {
	[ -f "$TMP/long.sr" ] || gen week-sr "$TMP/long.sr" || return 1
	python3 - "$TMP" <<'PY' || return 1
import random, sys
d = sys.argv[1]
raw = open(f"{d}/long.sr", "rb").read()
rng = random.Random(11)
for k in range(12):
    b = bytearray(raw[: rng.randrange(len(raw))] if k < 6 else raw)
    if k >= 6:
        for _ in range(4):
            b[rng.randrange(len(b))] ^= 1 << rng.randrange(8)
    open(f"{d}/bad{k}.sr", "wb").write(b)
PY
	local k rc
	for k in $(seq 0 11); do
		timeout 20 "$SQWAVE" analyze "$TMP/bad$k.sr" --quiet > /dev/null 2> "$TMP/err"
		rc=$?
		rc_in $rc 0 2 || fail "bad$k.sr: exit $rc: $(cat "$TMP/err")" || return 1
	done
}

# Each scope column costs ~300 KiB in the first pass: a header of thousands
# of columns is refused by name (fuzz_capture_scope found 5 GB from 60 kB).
test_a_scope_csv_of_thousands_of_columns_is_refused_in_bounded_memory() {
	python3 -c "
n = 5000
print('Time,' + ','.join('CH%d' % i for i in range(n)))
for r in range(10): print('%g,' % (r * 1e-4) + ','.join(str(r % 2) for i in range(n)))" > "$TMP/wide.csv"
	if [ $limits_ok = 1 ]; then
		( ulimit -v 400000; exec timeout 60 "$SQWAVE" analyze "$TMP/wide.csv" ) > /dev/null 2> "$TMP/err"
	else
		timeout 60 "$SQWAVE" analyze "$TMP/wide.csv" > /dev/null 2> "$TMP/err"
	fi
	local rc=$?
	[ $rc -eq 2 ] || fail "exit $rc: $(head -c 300 "$TMP/err")" || return 1
	grep -q "wide.csv:1: more than 256 value columns" "$TMP/err" || fail "$(cat "$TMP/err")" || return 1
}

test_a_vcd_whose_time_goes_backwards_is_exit_2_with_its_line() {
	printf '$timescale 1 ns $end $scope module t $end $var wire 1 ! a $end $upscope $end\n$enddefinitions $end\n#0 0!\n#10 1!\n#5 0!\n' > "$TMP/b.vcd"
	"$SQWAVE" analyze "$TMP/b.vcd" > /dev/null 2> "$TMP/err"
	local rc=$?
	[ $rc -eq 2 ] || fail "exit $rc" || return 1
	grep -q "b.vcd:5:" "$TMP/err" || fail "$(cat "$TMP/err")" || return 1
	# found after 20 edges: the --csv written up to there is kept, and said
	# to be incomplete (as export keeps the records before a bad one)
	{ printf '$timescale 1 ns $end $scope module t $end $var wire 1 ! a $end $upscope $end\n'
	  printf '$enddefinitions $end\n'
	  for k in $(seq 0 20); do printf '#%d %d!\n' $((k * 500000)) $((k % 2)); done
	  printf '#5 0!\n'; } > "$TMP/b20.vcd"
	"$SQWAVE" analyze "$TMP/b20.vcd" --csv "$TMP/b20.csv" > /dev/null 2> "$TMP/err"
	[ $? -eq 2 ] || fail "--csv: exit not 2" || return 1
	grep -q "b20.vcd:24: time goes backwards" "$TMP/err" || fail "$(cat "$TMP/err")" || return 1
	grep -q "b20.csv is incomplete: it holds the 19 edges read before the error" "$TMP/err" ||
		fail "$(cat "$TMP/err")" || return 1
	[ "$(wc -l < "$TMP/b20.csv")" -eq 20 ] || fail "$(cat "$TMP/b20.csv")" || return 1
}

e2e_run --subshell --short --prefix "hostile/captures: " "hostile captures"
