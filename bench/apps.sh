# Shared by bench/app_tune.sh and bench/online.sh (sourced): Debian's hpcc and LAMMPS (built
# against Open MPI), their input, their figures of merit, and the tables of medians.

# Installs what is missing of hpcc, lammps and its examples (Debian's archive).
apps_install() {
    local need=() sudo=""
    command -v hpcc >/dev/null || need+=(hpcc)
    command -v lmp >/dev/null || need+=(lammps)
    [ -f /usr/share/lammps/examples/melt/in.melt ] || need+=(lammps-examples)
    [ ${#need[@]} -gt 0 ] || return 0
    echo "$(basename "$0"): installing ${need[*]}" >&2
    [ "$(id -u)" -eq 0 ] || sudo=sudo
    $sudo apt-get install -y --no-install-recommends "${need[@]}" >&2
}

# hpcc reads ./hpccinf.txt: HPL N=2000 on a 1 x NP grid (a few seconds per run). hpcc_input DIR NP
hpcc_input() {
    sed -e 's/^1000         Ns/2000         Ns/' -e 's/^2            Ps/1            Ps/' \
        -e "s/^2            Qs/$2            Qs/" /usr/share/doc/hpcc/examples/_hpccinf.txt \
        >"$1/hpccinf.txt"
}

# One run of hpcc or LAMMPS in DIR (its input written there first), under MPIRUN with the
# variables ENV, output in DIR/out.txt. app_launch APP DIR NP "MPIRUN" [ENV...]
app_launch() {
    local app=$1 dir=$2 np=$3 mpirun=$4
    shift 4
    case $app in
    hpcc)
        hpcc_input "$dir" "$np"
        (cd "$dir" && timeout 900 $mpirun env "$@" hpcc >out.txt 2>&1)
        ;;
    lammps)
        (cd "$dir" && timeout 900 $mpirun env "$@" lmp -in /usr/share/lammps/examples/melt/in.melt \
            -log none >out.txt 2>&1)
        ;;
    esac
}

# The figures of merit of one hpcc or LAMMPS run in DIR: "name value better" lines (better: high
# or low). app_merit APP DIR
app_merit() {
    case $1 in
    hpcc)
        awk -F= '
            /^HPL_Tflops=/ { print "HPL_Tflops", $2, "high" }
            /^PTRANS_GBs=/ { print "PTRANS_GBs", $2, "high" }
            /^MPIRandomAccess_GUPs=/ { print "MPIRandomAccess_GUPs", $2, "high" }
            /^MPIFFT_Gflops=/ { print "MPIFFT_Gflops", $2, "high" }
            /^RandomlyOrderedRingBandwidth_GBytes=/ { print "RingBandwidth_GBytes", $2, "high" }
            /^RandomlyOrderedRingLatency_usec=/ { print "RingLatency_usec", $2, "low" }' \
            "$2/hpccoutf.txt"
        ;;
    lammps) awk '/^Loop time of/ { print "loop_time_s", $4, "low" }' "$2/out.txt" ;;
    esac
}

# LAUNCHES pairs of launches of the arms A and B in ABBA order (A first in odd pairs, B first in
# even ones), so that a machine drifting within the pairs favours neither arm: calls
# FUNC ARM I for each launch, and says which pair runs on stderr. abba_pairs LAUNCHES A B FUNC WHO
abba_pairs() {
    local n=$1 a=$2 b=$3 func=$4 who=$5 i order arm
    for i in $(seq 1 "$n"); do
        order="$a $b"
        [ $((i % 2)) -eq 0 ] && order="$b $a"
        echo "$who: launch $i of $n (${order/ /, then })" >&2
        for arm in $order; do "$func" "$arm" "$i"; done
    done
}

# The median of the numbers on stdin (nothing for none).
median() { sort -g | awk '{ v[NR] = $1 } END { if (!NR) exit; if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# The median of the numbers on stdin with a distribution-free 95 % interval for it (order
# statistics k and n+1-k, k the largest with P(Binomial(n, 1/2) < k) <= 0.025; with fewer than
# 6 numbers no k qualifies and the interval printed is the range, which covers less): "median
# lo hi".
median_ci() {
    sort -g | awk '{ v[NR] = $1 } END {
        n = NR; if (!n) exit
        med = n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
        k = 1; c = 0; pk = 0.5 ^ n # P(X = 0)
        for (j = 0; j < n; j++) { if (c + pk > 0.025) break; c += pk; k = j + 1; pk = pk * (n - j) / (j + 1) }
        printf "%g %g %g\n", med, v[k], v[n + 1 - k] }'
}

# One row per figure of APP: the medians over W/A-*.fom and W/B-*.fom, B / A, and the launches
# paired by number (A-i with B-i, run one after the other): the median of the B-i / A-i and its
# 95 % interval (median_ci), which the launch-to-launch drift of the machine moves less.
# fom_rows APP W A B
fom_rows() {
    local app=$1 w=$2 a=$3 b=$4 fig better x y pr
    for fig in $(cat "$w/$a"-*.fom | awk '{ print $1 }' | sort -u); do
        better=$(cat "$w/$a"-*.fom | awk -v f="$fig" '$1 == f { print $3; exit }')
        x=$(cat "$w/$a"-*.fom | awk -v f="$fig" '$1 == f { print $2 }' | median)
        y=$(cat "$w/$b"-*.fom | awk -v f="$fig" '$1 == f { print $2 }' | median)
        pr=$(for fa in "$w/$a"-*.fom; do
            fb=$w/$b-${fa##*/$a-}
            [ -f "$fb" ] || continue
            awk -v f="$fig" '$1 == f { print $2 }' "$fa" "$fb" | paste -sd' ' |
                awk 'NF == 2 && $1 > 0 { print $2 / $1 }'
        done | median_ci)
        awk -v a="$app" -v f="$fig" -v x="$x" -v y="$y" -v b="$better" -v pr="${pr:-- - -}" 'BEGIN {
            split(pr, r, " ")
            printf "%-11s %-22s %14.6g %14.6g %9.3f %8.3f %7.3f..%-7.3f (%s is better)\n", a, f, x, y,
                   (x > 0 ? y / x : 0), r[1], r[2], r[3], (b == "high" ? "higher" : "lower") }'
    done
}
