#!/bin/sh
# report.html in a real browser: headless Chromium renders the report of a
# synthetic OUTDIR (check launches, validation launches with a kept and a rejected entry, an
# oversubscribed header) and a page-side check fails on a JavaScript error, a collective
# section without its chart, a chart with nothing drawn, an empty table, or a verdict that is
# not the first thing under the title and inside the first 1280x800 screen. Four broken copies
# of the report must each fail that check, so the check itself is shown to work.
# usage: report_browser.sh MPIGUIDE WORKDIR
set -u
bin=$1 work=$2
fail() { echo "FAIL: $*"; exit 1; }
command -v chromium >/dev/null 2>&1 || fail "chromium is not installed (scripts/deps.sh installs it)"
rm -rf "$work" && mkdir -p "$work" || fail "cannot create $work"

# --- a synthetic OUTDIR: medians per (collective, size, algorithm), log-normal noise (awk) ---
rows() { # rows FILE SEED COLL ALG MSIZE MEDIAN N
    awk -v seed="$2" -v c="$3" -v a="$4" -v m="$5" -v med="$6" -v n="$7" 'BEGIN {
        srand(seed)
        for (i = 0; i < n; i++) {
            z = sqrt(-2 * log(1 - rand())) * cos(6.283185307 * rand())
            printf "%s %s %d %d %.10f\n", c, a, i, m, med * exp(0.03 * z)
        }
    }' >>"$1"
}
header() { printf '#@nprocs=2\n#@nodes=1\n#@ppn=2\n#@mpi_library=Synthetic MPI 1.0\n#@datatype=MPI_BYTE\n#@operation=MPI_BOR\n#@date=2026-01-01\n%s' "${2:-}" >"$1"; }
out=$work/out
seed=1
for k in 1 2 3; do
    d=$out/raw/launch-$k
    mkdir -p "$d"
    header "$d/MPI_Barrier.dat"
    rows "$d/MPI_Barrier.dat" $((seed += 1)) MPI_Barrier default 0 0.000001 50
    header "$d/MPI_Allreduce.dat"
    for m in 8 1024 65536; do
        rows "$d/MPI_Allreduce.dat" $((seed += 1)) MPI_Allreduce default $m 0.000020 60
        rows "$d/MPI_Allreduce.dat" $((seed += 1)) MPI_Allreduce allreduce_as_reduce_bcast $m 0.000012 60
        rows "$d/MPI_Allreduce.dat" $((seed += 1)) MPI_Allreduce allreduce_as_reducescatterblock_allgather $m 0.000025 60
    done
    header "$d/MPI_Bcast.dat"
    for m in 8 1024; do
        rows "$d/MPI_Bcast.dat" $((seed += 1)) MPI_Bcast default $m 0.000010 60
        rows "$d/MPI_Bcast.dat" $((seed += 1)) MPI_Bcast bcast_as_allgatherv $m 0.000011 60
    done
done
for k in 1 2; do
    d=$out/tuned/launch-$k
    mkdir -p "$d"
    header "$d/MPI_Allreduce.dat" "$(printf '#@oversubscribed=1\n#@node_ranks=4\n#@node_cores=2\n#@busy_poll=1\n')"
    for m in 8 1024 65536; do
        t=0.000012
        [ $m = 1024 ] && [ $k = 2 ] && t=0.000030 # the entry at 1 KiB does not hold
        rows "$d/MPI_Allreduce.dat" $((seed += 1)) MPI_Allreduce default $m 0.000020 60
        rows "$d/MPI_Allreduce.dat" $((seed += 1)) MPI_Allreduce tuned $m $t 60
    done
    header "$d/MPI_Bcast.dat"
    for m in 8 1024; do
        rows "$d/MPI_Bcast.dat" $((seed += 1)) MPI_Bcast default $m 0.000010 60
        rows "$d/MPI_Bcast.dat" $((seed += 1)) MPI_Bcast tuned $m 0.000010 60
    done
done
"$bin" analyze "$out" >"$work/analyze.log" 2>&1 || { cat "$work/analyze.log"; fail "mpiguide analyze failed"; }
grep -q 'rejected by validation' "$out/report.html" || fail "the synthetic report has no rejected entry"

# --- the page-side check, injected into a copy of the page ---
cat >"$work/probe_head.html" <<'JS'
<script>
window.__mgErrors = [];
window.addEventListener("error", function (e) { window.__mgErrors.push("error: " + (e.message || "a resource failed to load")); }, true);
window.addEventListener("unhandledrejection", function (e) { window.__mgErrors.push("rejection: " + e.reason); });
(function () { var ce = console.error; console.error = function () { window.__mgErrors.push("console.error: " + Array.prototype.join.call(arguments, " ")); ce.apply(console, arguments); }; })();
</script>
JS
cat >"$work/probe_body.html" <<'JS'
<script>
window.addEventListener("load", function () {
  var out = [], say = function (k, v) { out.push(k + "=" + v); };
  var errs = window.__mgErrors;
  say("js_errors", errs.length);
  errs.forEach(function (e) { say("js_error", e); });
  var secs = document.querySelectorAll("section"), nochart = 0, empty = 0;
  say("sections", secs.length);
  secs.forEach(function (s) {
    var c = s.querySelector("svg.chart");
    if (!c) { nochart++; return; }
    var b = c.getBoundingClientRect();
    if (b.width < 100 || b.height < 50 || c.querySelectorAll("polyline[points]").length == 0 ||
        c.querySelectorAll("circle").length == 0) empty++;
  });
  say("sections_without_chart", nochart);
  say("empty_charts", empty);
  var tabs = document.querySelectorAll("table"), et = 0;
  tabs.forEach(function (t) { if (t.querySelectorAll("td").length == 0) et++; });
  say("tables", tabs.length);
  say("empty_tables", et);
  var v = document.getElementById("verdict");
  say("verdict", v ? 1 : 0);
  if (v) {
    var h1 = document.querySelector("h1"), first = h1 ? h1.nextElementSibling : null;
    while (first && first.classList.contains("muted")) first = first.nextElementSibling;
    say("verdict_first", first === v ? 1 : 0);
    var b = v.getBoundingClientRect();
    say("verdict_bottom", Math.round(b.bottom));
    say("screen_height", window.innerHeight);
    say("verdict_on_first_screen", b.top >= 0 && b.bottom <= window.innerHeight ? 1 : 0);
    say("verdict_text", v.innerText.replace(/\s+/g, " "));
  }
  var pre = document.createElement("pre");
  pre.id = "mgcheck";
  var mark = "MGCHECK-"; /* not literally in this script, which the DOM dump holds too */
  pre.textContent = mark + "BEGIN\n" + out.join("\n") + "\n" + mark + "END";
  document.body.appendChild(pre);
});
</script>
JS

# check PAGE NAME: renders PAGE, writes NAME.txt with the check's key=value lines; 0 when the
# page passes, 1 with the reasons on stdout
check() {
    page=$1 name=$2
    inj=$work/$name.html
    awk -v h="$work/probe_head.html" -v b="$work/probe_body.html" '
        /<\/body>/ { while ((getline l < b) > 0) print l }
        { print }
        /<head>/ { while ((getline l < h) > 0) print l }' "$page" >"$inj"
    prof=$(mktemp -d)
    timeout 90 chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
        --disable-background-networking --disable-component-update --disable-sync \
        --user-data-dir="$prof" --window-size=1280,800 --virtual-time-budget=5000 \
        --dump-dom "file://$inj" >"$work/$name.dom" 2>"$work/$name.chromium.log"
    rc=$?
    rm -rf "$prof"
    [ $rc -eq 0 ] || { echo "chromium exit code $rc"; return 1; }
    sed -n '/MGCHECK-BEGIN/,/MGCHECK-END/p' "$work/$name.dom" | sed '1d;$d' >"$work/$name.txt"
    [ -s "$work/$name.txt" ] || { echo "the check did not run (no result in the DOM)"; return 1; }
    v() { sed -n "s/^$1=//p" "$work/$name.txt" | head -1; }
    bad=0
    [ "$(v js_errors)" = 0 ] || { echo "JavaScript errors: $(grep '^js_error=' "$work/$name.txt" | tr '\n' ' ')"; bad=1; }
    [ "$(v sections)" -ge 2 ] 2>/dev/null || { echo "only $(v sections) collective sections"; bad=1; }
    [ "$(v sections_without_chart)" = 0 ] || { echo "$(v sections_without_chart) sections without a chart"; bad=1; }
    [ "$(v empty_charts)" = 0 ] || { echo "$(v empty_charts) charts with nothing drawn"; bad=1; }
    [ "$(v empty_tables)" = 0 ] || { echo "$(v empty_tables) of $(v tables) tables empty"; bad=1; }
    [ "$(v verdict)" = 1 ] || { echo "no verdict"; bad=1; }
    [ "$(v verdict_first)" = 1 ] || { echo "the verdict is not the first thing under the title"; bad=1; }
    [ "$(v verdict_on_first_screen)" = 1 ] || { echo "the verdict ends at $(v verdict_bottom) px, below the first screen ($(v screen_height) px)"; bad=1; }
    return $bad
}

page=$out/report.html
why=$(check "$page" good) || fail "report.html: $why"
t=$(sed -n 's/^verdict_text=//p' "$work/good.txt")
case $t in *"timings are not trustworthy: 4 ranks on 2 cores"*) ;; *) fail "the verdict does not warn about the machine: $t" ;; esac
case $t in *"2 profile entries kept, 1 rejected by validation"*) ;; *) fail "the verdict does not count the entries: $t" ;; esac
echo "report.html: $(sed -n 's/^sections=//p' "$work/good.txt") sections with charts, $(sed -n 's/^tables=//p' "$work/good.txt") tables, no JavaScript error, verdict on the first screen (bottom at $(sed -n 's/^verdict_bottom=//p' "$work/good.txt") px)"

# --- the check must catch each defect ---
sed 's|</body>|<script>undefined_function_of_the_report();</script></body>|' "$page" >"$work/bad_js.html"
awk '/<svg class="chart"/ && !done { skip = 1; done = 1 } !skip { print } /<\/svg>/ { skip = 0 }' "$page" >"$work/bad_chart.html"
sed '0,/<tbody>/s|<tbody>.*|<tbody></tbody></table><table><tbody>|' "$page" >"$work/bad_table.html"
awk '/<div id="verdict"/ { hold = 1 } hold { buf = buf $0 "\n"; if ($0 ~ /<\/div>/) hold = 0; next }
     /<\/body>/ { printf "%s", buf } { print }' "$page" >"$work/bad_verdict.html"
for c in "bad_js:JavaScript errors" "bad_chart:without a chart" "bad_table:tables empty" "bad_verdict:not the first thing"; do
    name=${c%%:*} want=${c#*:}
    if why=$(check "$work/$name.html" "$name.checked"); then
        fail "$name: the broken page passed the check"
    fi
    case $why in *"$want"*) echo "$name: caught ($why)" ;; *) fail "$name: failed for another reason: $why" ;; esac
done
echo "1 passed, 0 failed"
