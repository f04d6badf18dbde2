#!/bin/bash
# SPDX-License-Identifier: MIT
# khash-bench's figures: data, gnuplot script and images written together,
# nothing left at a temporary name, a script that re-renders on its own,
# and nothing of gnuplot's on stderr.  Needs gnuplot past its first checks
# (those of a machine without it): without it the test says so and exits
# 77 (skipped), which CI, having installed it, counts as a failure.
set -u
kb=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# shellcheck source=checks.sh
. "$(dirname "$0")/checks.sh"

# Without gnuplot a plot run still writes what it can, the data and the
# scripts that draw them, and says so in one line; a gnuplot that cannot
# be run is an error that leaves nothing behind.
PATH=/nonexistent "$kb" tables --plot "$tmp/nognu" >"$tmp/nognu.out" 2>"$tmp/nognu.err"
[ $? = 0 ] && [ -s "$tmp/nognu.out" ] && [ "$(wc -l <"$tmp/nognu.err")" = 1 ] &&
	grep -q "^khash-bench: warning: gnuplot not found: wrote the plots' .dat and .gp files only" "$tmp/nognu.err" &&
	[ "$(cd "$tmp/nognu" && echo *)" = "tables_w32.dat tables_w32.gp tables_w64.dat tables_w64.gp" ]
check "no gnuplot: .dat and .gp written, one warning, exit 0" $?
mkdir "$tmp/bin" && printf '#!/bin/sh\n' >"$tmp/bin/gnuplot" && chmod 644 "$tmp/bin/gnuplot"
PATH=$tmp/bin "$kb" report --keysets page4k --bits-min 6 --bits-max 8 --plot "$tmp/noexec" \
	>"$tmp/noexec.out" 2>"$tmp/noexec.err"
[ $? = 1 ] && [ ! -e "$tmp/noexec" ] && [ ! -s "$tmp/noexec.out" ] &&
	[ "$(cat "$tmp/noexec.err")" = "khash-bench: cannot run gnuplot: Permission denied" ]
check "a gnuplot that cannot run: one error, exit 1, nothing written" $?

command -v gnuplot >/dev/null || { echo "SKIP: gnuplot is not installed (Debian: gnuplot-nox)"; exit 77; }

# gnuplots draw side by side: one that fails while later figures are being
# drawn is still the error, named by its figure, and nothing is left behind
# (its figure is the second of twelve; it fails after the others started).
real=$(command -v gnuplot)
mkdir "$tmp/failbin" && cat >"$tmp/failbin/gnuplot" <<EOS && chmod 755 "$tmp/failbin/gnuplot"
#!/bin/sh
case "\$3" in *heatmap_hash_32_w32*) sleep 0.3; echo 'line 3: no such thing' >&2; exit 1 ;; esac
exec "$real" "\$@"
EOS
PATH=$tmp/failbin:$PATH "$kb" report --keysets page4k --bits-min 6 --bits-max 8 --plot "$tmp/fails" \
	>"$tmp/fails.out" 2>"$tmp/fails.err"
[ $? = 1 ] && [ ! -e "$tmp/fails" ] && [ ! -s "$tmp/fails.out" ] &&
	[ "$(cat "$tmp/fails.err")" = "khash-bench: gnuplot failed on heatmap_hash_32_w32.gp: line 3: no such thing" ]
check "a gnuplot failing beside others: its figure named, exit 1, nothing written" $?


# every figure read back as gnuplot draws it (check_figures.py): plot areas,
# axis ranges, points and labels against the figure's own data
fig="$(dirname "$0")/check_figures.py"
# canvas DIR...: no title, label or tic of a figure in DIR runs past its
# canvas.  Each DIR is checked as soon as it is drawn, so that a bug stops
# the run early; the last check counts that every SVG drawn here was.
svgs_checked=0
canvas() {
	local d s
	for d in "$@"; do
		mapfile -t s < <(find "$tmp/$d" -name '*.svg')
		[ "${#s[@]}" -gt 0 ] && python3 "$fig" text "${s[@]}"
		check "no text past the canvas in $d's ${#s[@]} SVGs" $?
		svgs_checked=$((svgs_checked + ${#s[@]}))
	done
}

"$kb" report --keysets page4k,btrfs-stripe --bits-min 6 --bits-max 12 \
	--plot "$tmp/plots" >/dev/null 2>"$tmp/plot.err"
# gnuplot's own warnings (an all-n/a heatmap panel) are not the user's
[ ! -s "$tmp/plot.err" ]; check "a good plot run says nothing on stderr" $?
for f in heatmap_hash_64_w64 hist_page4k_hash_64_w64_b11; do
	for e in dat gp png svg; do
		[ -s "$tmp/plots/$f.$e" ]; check "plot $f.$e written" $?
	done
done
[ -z "$(find "$tmp/plots" -name '*.tmp.*')" ]; check "no plot temporaries" $?
# the histogram's data: bucket, then one column a generation in order; 65,536
# page addresses in 2048 buckets fill 2 under old and all 2048 under new
# (the README's story), and every column holds every key
awk '!/^#/ {for (c = 2; c <= 5; c++) {s[c] += $c; if ($c) u[c]++}}
	END {exit !(s[2] == 65536 && s[3] == 65536 && s[4] == 65536 && s[5] == 65536 &&
		    u[2] == 2 && u[3] == 2048 && u[5] == 2048)}' "$tmp/plots/hist_page4k_hash_64_w64_b11.dat"
check "histogram data: old fills 2 buckets, minimal and new 2048" $?
[ "$(head -1 "$tmp/plots/hist_page4k_hash_64_w64_b11.dat")" = "# bucket old minimal posted new" ]
check "histogram data header" $?
# 65,536 keys in 2048 buckets: a random function's mean load is 32
[ "$(grep -c 'title "random function: mean load 32"' "$tmp/plots/hist_page4k_hash_64_w64_b11.gp")" = 4 ]
check "histogram: every panel shows a random function's mean load" $?
for f in hist_page4k_hash_64_w64_b11 hist_btrfs-stripe_hash_64_w64_b11; do
	python3 "$fig" hist "$tmp/plots" "$f"
	check "$f: buckets clear of the frame, baselines in sight, full buckets labelled, key off the data, panels aligned" $?
done
python3 "$fig" heatmap "$tmp/plots" heatmap_hash_64_w64
check "heatmap: panels aligned, colour-bar tics at powers of ten" $?
canvas plots
"$kb" skew --func hash_64 --gen all --word 64 --bits 11 --keyset btrfs-stripe --plot "$tmp/skb" >/dev/null &&
	python3 "$fig" hist "$tmp/skb" skew_btrfs-stripe_hash_64_w64_b11
check "skew --plot: the one full bucket at the edge, labelled and clear of the frame" $?
canvas skb
"$kb" audit --compare --plot "$tmp/auc" >/dev/null && python3 "$fig" audit "$tmp/auc" audit_compare
check "audit --compare --plot: a style a multiplier, coinciding lines said, 1 and 10 inside" $?
canvas auc
"$kb" waittable --count 100 --word 64 --plot "$tmp/wt100" >/dev/null &&
	python3 "$fig" waittable "$tmp/wt100" waittable_w64_n100
check "waittable --plot: zeros marked at a floor labelled 0, key off the curves" $?
canvas wt100

"$kb" audit --preset old64 --plot "$tmp/au" >/dev/null &&
	[ -s "$tmp/au/audit_old64.png" ] && [ -s "$tmp/au/audit_old64.dat" ]
check "audit --plot" $?
# a reader's baselines: a random function's X^2/df of 1, and report's 10
grep -q '^    1 with lines .*title "1: random function"' "$tmp/au/audit_old64.gp" &&
	grep -q '^    10 with lines .*title "10: broken"' "$tmp/au/audit_old64.gp"
check "audit --plot: reference lines at 1 and 10" $?
canvas au

# tables: a figure for each word size, each painted as the CSV says
"$kb" tables --format csv -o "$tmp/tables.csv" --plot "$tmp/tab" >/dev/null
check "tables --plot" $?
for w in 64 32; do
	[ -s "$tmp/tab/tables_w$w.png" ] && [ -s "$tmp/tab/tables_w$w.svg" ] &&
		python3 "$(dirname "$0")/check_heatmap_data.py" tables "$tmp/tables.csv" "$tmp/tab" $w
	check "tables_w$w painted as the CSV says" $?
done
"$kb" tables --words 32 --plot "$tmp/tab32" >/dev/null && [ "$(cd "$tmp/tab32" && echo *.png)" = tables_w32.png ]
check "tables --words 32 --plot: the 32-bit figure only" $?
canvas tab tab32

# K in the report: its own column and panel.  K = old's 64-bit multiplier
# puts every key where old does, bucket by bucket
"$kb" report --keysets page4k --funcs hash_64 --words 64 --bits-min 11 --bits-max 11 \
	--multiplier 0x9e37fffffffc0001 --width 64 --hist page4k:hash_64:64:11 \
	--plot "$tmp/kplots" >/dev/null
check "report --multiplier --plot" $?
[ "$(head -1 "$tmp/kplots/hist_page4k_hash_64_w64_b11.dat")" = "# bucket old minimal posted new K" ]
check "histogram data header names K" $?
awk '!/^#/ {n++; s += $6; if ($6 != $2) bad++} END {exit !(n == 2048 && s == 65536 && !bad)}' \
	"$tmp/kplots/hist_page4k_hash_64_w64_b11.dat"
check "histogram: K = old's multiplier fills old's buckets" $?
grep -q 'layout 5,1' "$tmp/kplots/hist_page4k_hash_64_w64_b11.gp" &&
	grep -q 'set title "K = 0x9e37fffffffc0001: 2 of 2048 buckets used' "$tmp/kplots/hist_page4k_hash_64_w64_b11.gp" &&
	grep -q 'using 1:6 ' "$tmp/kplots/hist_page4k_hash_64_w64_b11.gp"
check "histogram: a fifth panel, K's, naming its multiplier" $?
grep -q 'set title "K = 0x9e37fffffffc0001"$' "$tmp/kplots/heatmap_hash_64_w64.gp"
check "heatmap: K's panel names its multiplier" $?
"$kb" skew --func hash_64 --word 64 --bits 8 --keyset seq --gen all --multiplier 0x9e37fffffffc0001 \
	--plot "$tmp/kskew" >/dev/null &&
	grep -q 'set title "K = 0x9e37fffffffc0001 (64-bit product): ' "$tmp/kskew/skew_seq_hash_64_w64_b8.gp"
check "skew --plot: K's panel names its multiplier" $?
(cd "$tmp/plots" && gnuplot heatmap_hash_64_w64.gp) && [ -s "$tmp/plots/heatmap_hash_64_w64.png" ]
check "plot re-renders from its own script" $?
canvas kplots kskew

# heatmaps read back through gnuplot, cell by cell against the CSV: page4k
# and slab are n/a for hash_32 on 64-bit kernels, and the rows around them
# must keep their own places and colours (they once stretched over them)
"$kb" report --keysets page4k,random,slab --bits-min 6 --bits-max 12 --format csv \
	-o "$tmp/hm.csv" --plot "$tmp/hm" >/dev/null
check "report --plot with n/a rows" $?
for fw in "hash_32 64" "hash_32 32" "hash_ptr 32" "hash_ptr 64"; do
	# shellcheck disable=SC2086 # function and word, two arguments
	python3 "$(dirname "$0")/check_heatmap_data.py" report "$tmp/hm.csv" "$tmp/hm" $fw
	check "heatmap $fw painted as the CSV says" $?
done
canvas hm

"$kb" waittable --count 20 --word 64 --plot "$tmp/wt" >/dev/null 2>"$tmp/wt.err"
[ -s "$tmp/wt/waittable_w64_n20.png" ] && [ ! -s "$tmp/wt.err" ]
check "waittable --plot" $?
"$kb" influence --func hash_32 --gen old --word 32 --bits 8 --count 4096 --plot "$tmp/in" >/dev/null
tail -c 12 "$tmp/in/influence_hash_32_old_w32_b8.png" | od -An -c | grep -q 'I   E   N   D'
check "influence --plot: a whole PNG" $?
canvas wt in

# skew --plot: the bucket loads of each generation's cell, a column each,
# every column summing to the keys
"$kb" skew --func hash_64 --gen old,new --word 64 --bits 11 --keyset page4k --plot "$tmp/sk" >/dev/null 2>"$tmp/sk.err"
[ $? = 0 ] && [ ! -s "$tmp/sk.err" ] &&
	[ "$(cd "$tmp/sk" && echo *)" = "skew_page4k_hash_64_w64_b11.dat skew_page4k_hash_64_w64_b11.gp skew_page4k_hash_64_w64_b11.png skew_page4k_hash_64_w64_b11.svg" ]
check "skew --plot: data, script and images" $?
[ "$(head -1 "$tmp/sk/skew_page4k_hash_64_w64_b11.dat")" = "# bucket old new" ] &&
	[ "$(awk 'NR > 1 {rows++; o += $2; n += $3; if ($2) uo++; if ($3) un++} END {print rows, o, n, uo, un}' "$tmp/sk/skew_page4k_hash_64_w64_b11.dat")" = "2048 4096 4096 2 1968" ]
check "skew --plot: 2048 buckets, 4096 keys a generation, old in 2 buckets, new in 1968" $?
"$kb" skew --func hash_64 --gen new --word 64 --bits 21 --keyset page4k --plot "$tmp/sk21" 2>"$tmp/sk21.err"
[ $? = 2 ] && [ ! -e "$tmp/sk21" ] &&
	[ "$(cat "$tmp/sk21.err")" = "khash-bench: --plot draws at most 2^20 buckets, not 2^21" ]
check "skew --plot: past 2^20 buckets refused, nothing written" $?
canvas sk

mapfile -t svgs < <(find "$tmp" -name '*.svg')
[ "${#svgs[@]}" -ge 20 ] && [ "$svgs_checked" = "${#svgs[@]}" ]
check "every one of the ${#svgs[@]} SVGs checked for text past its canvas" $?

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
