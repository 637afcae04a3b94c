# Script-mode checks of `mpiguide bench` and `mpiguide nrep` (run by the tests that
# tests/mpi/bench.cmake registers: cmake -DCASE=... -DNP=... -DBIN=... -DMPIEXEC=... -DNPFLAG=...
# -DWORK=... -P bench_cli.cmake). Every launch is bounded by `timeout`; the checks are about
# behaviour (rows, exit codes, messages), never about times. Files are inspected with awk.
if(NOT CMAKE_SCRIPT_MODE_FILE)
  return() # tests/CMakeLists.txt includes every mpi/*.cmake; this one is a script
endif()

file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})

macro(fail msg)
  message(FATAL_ERROR "bench_cli ${CASE} np=${NP}: ${msg}")
endmacro()

# run(RC OUT ERR args...): the CLI under the launcher.
function(run rc_var out_var err_var)
  execute_process(COMMAND timeout 240 ${MPIEXEC} ${NPFLAG} ${NP} ${BIN} ${ARGN}
    WORKING_DIRECTORY ${WORK} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  set(${rc_var} "${rc}" PARENT_SCOPE)
  set(${out_var} "${out}" PARENT_SCOPE)
  set(${err_var} "${err}" PARENT_SCOPE)
endfunction()

# expect_count(TEXT REGEX N WHAT): REGEX matches N times in TEXT.
function(expect_count text regex n what)
  string(REGEX MATCHALL "${regex}" m "${text}")
  list(LENGTH m k)
  if(NOT k EQUAL n)
    fail("${what}: ${k}, want ${n}:\n${text}")
  endif()
endfunction()

# expect_one_error(RC WANT ERR WHAT): exit code WANT and one error line (one rank reports).
function(expect_one_error rc want err what)
  if(NOT rc EQUAL want)
    fail("${what}: exit ${rc}, want ${want}\n${err}")
  endif()
  expect_count("${err}" "mpiguide: error:" 1 "${what}: error lines (one rank reports)")
endfunction()

# expect_lines(FILE REGEX N WHAT): FILE has N lines matching REGEX.
function(expect_lines file regex n what)
  file(STRINGS ${WORK}/${file} lines REGEX "${regex}")
  list(LENGTH lines k)
  if(NOT k EQUAL n)
    fail("${file}: ${k} ${what}, want ${n}")
  endif()
endfunction()

# run_ok(args...): the CLI must succeed.
function(run_ok)
  run(rc out err ${ARGN})
  if(NOT rc EQUAL 0)
    fail("`${ARGN}` exited with ${rc}:\n${err}")
  endif()
endfunction()

# groups(FILE VAR): "test alg msize rows" per measurement, in file order; fails on rows whose
# observation index does not continue the measurement, and on malformed rows.
set(GROUPS_AWK [=[
!/^#/ && NF > 0 {
  if (NF < 5 || NF > 6) { print "BAD malformed: " $0; exit }
  key = $1 " " $2 " " $4
  if (key != prev || $3 == 0) {
    if ($3 != 0) { print "BAD index " $3 " starts " key; exit }
    if (prev != "") print prev, n
    prev = key; n = 0
  } else if ($3 != last + 1) { print "BAD index " $3 " after " last " in " key; exit }
  n++; last = $3
}
END { if (prev != "") print prev, n }
]=])
function(groups file var)
  if(NOT EXISTS ${WORK}/${file})
    fail("${file} was not written")
  endif()
  execute_process(COMMAND awk "${GROUPS_AWK}" ${WORK}/${file} OUTPUT_VARIABLE out)
  if(out MATCHES "BAD")
    fail("${file}: ${out}")
  endif()
  string(REGEX REPLACE "\n$" "" out "${out}")
  if(out STREQUAL "")
    set(${var} "" PARENT_SCOPE)
  else()
    string(REPLACE "\n" ";" out "${out}")
    set(${var} "${out}" PARENT_SCOPE)
  endif()
endfunction()

# expect_rows(FILE N COUNT): COUNT measurements, each with exactly N rows.
function(expect_rows file n count)
  groups(${file} g)
  list(LENGTH g len)
  if(NOT len EQUAL count)
    fail("${file}: ${len} measurements, want ${count}: ${g}")
  endif()
  foreach(x ${g})
    if(NOT x MATCHES " ${n}$")
      fail("${file}: measurement '${x}' does not have ${n} rows")
    endif()
  endforeach()
endfunction()

function(expect_match text regex what)
  if(NOT "${text}" MATCHES "${regex}")
    fail("${what}: no match for '${regex}' in:\n${text}")
  endif()
endfunction()

function(header_value file key var)
  file(STRINGS ${WORK}/${file} line REGEX "^#@${key}=")
  if(NOT line)
    fail("${file}: header key ${key} missing")
  endif()
  list(GET line 0 line)
  string(REGEX REPLACE "^#@${key}=" "" v "${line}")
  set(${var} "${v}" PARENT_SCOPE)
endfunction()

# the header says key=want
function(expect_header file key want)
  header_value(${file} ${key} v)
  if(NOT v STREQUAL "${want}")
    fail("${file}: ${key}=${v}, expected ${want}")
  endif()
endfunction()

set(Q --quiet)

if(CASE STREQUAL "rows")
  # rows per measurement equal nrep; Barrier has one measurement (msize 0); tuned is measured
  run(rc out err bench --calls-list=MPI_Allreduce,MPI_Bcast,MPI_Barrier,MPI_Gatherv
      --msizes-list=8,64 --nrep=7 --algs=default,tuned --output-file=raw.dat ${Q})
  if(NOT rc EQUAL 0 OR NOT err STREQUAL "")
    fail("rc ${rc}, stderr with --quiet:\n${err}")
  endif()
  expect_rows(raw.dat 7 14)
  foreach(key nprocs nodes ppn clock procsync runtime_type clock_sync_error_s nrep datatype
          operation root_proc mpi_library hostname date mpiguide_version launcher)
    header_value(raw.dat ${key} v)
  endforeach()
  # the tree's own launcher, told from the environment it gives its tasks
  header_value(raw.dat launcher v)
  if("$ENV{MG_EXPECT_MPI}" STREQUAL "openmpi" AND NOT v STREQUAL "mpirun")
    fail("launcher=${v} under Open MPI's mpirun")
  elseif("$ENV{MG_EXPECT_MPI}" STREQUAL "mpich" AND NOT v STREQUAL "mpiexec")
    fail("launcher=${v} under MPICH's mpiexec")
  endif()
  expect_header(raw.dat nprocs ${NP})
  # more ranks than cores is said once in the header
  execute_process(COMMAND nproc OUTPUT_VARIABLE cores OUTPUT_STRIP_TRAILING_WHITESPACE)
  header_value(raw.dat oversubscribed v)
  if(NP GREATER cores)
    header_value(raw.dat node_ranks r)
    header_value(raw.dat node_cores c)
    if(NOT v EQUAL 1 OR NOT r EQUAL NP OR NOT c EQUAL cores)
      fail("${NP} ranks on ${cores} cores: oversubscribed=${v} node_ranks=${r} node_cores=${c}")
    endif()
  elseif(NOT v EQUAL 0)
    fail("${NP} ranks on ${cores} cores: oversubscribed=${v}")
  endif()
  expect_header(raw.dat nrep 7)
  header_value(raw.dat procsync v)
  header_value(raw.dat runtime_type r)
  if(NOT v STREQUAL "roundtime" OR NOT r STREQUAL "global")
    fail("defaults: procsync=${v} runtime_type=${r}")
  endif()
  groups(raw.dat g)
  expect_match("${g}" "MPI_Barrier tuned 0 7" "barrier with msize 0")
  expect_match("${g}" "MPI_Gatherv default 64 7" "regular Gatherv")
  # raw rows to stdout when there is no --output-file
  run(rc out err bench --calls-list=MPI_Scan --msizes-list=4 --nrep=3 ${Q})
  file(WRITE ${WORK}/stdout.dat "${out}")
  expect_rows(stdout.dat 3 1)
  # every registry algorithm of a call with --algs=all
  run_ok(bench --calls-list=MPI_Bcast --msizes-list=16 --nrep=2 --algs=all
         --output-file=all.dat ${Q})
  groups(all.dat g)
  expect_match("${g}" "MPI_Bcast default 16 2;MPI_Bcast bcast_as_" "all algorithms of MPI_Bcast")

elseif(CASE STREQUAL "interleave")
  # --interleave: the algorithms of one (call, size) alternate in batches; every measurement
  # still has its nrep rows, written together, and the header says the batch size
  run_ok(bench --calls-list=MPI_Allreduce,MPI_Bcast --msizes-list=8,1024 --nrep=23
         --algs=default,tuned,bcast_as_allgatherv --interleave=5 --shuffle --output-file=il.dat ${Q})
  expect_rows(il.dat 23 10)
  expect_header(il.dat interleave 5)
  # --pages: huge pages by default, base pages on request; either way every algorithm's result
  # is right (--verify fails the run otherwise), and the header says which was asked for
  expect_header(il.dat pages huge)
  run_ok(bench --calls-list=MPI_Allreduce,MPI_Alltoall --msizes-list=8,200000 --nrep=3
         --algs=all --verify --pages=small --output-file=small.dat ${Q})
  expect_header(small.dat pages small)
  run(rc out err bench --pages=tiny ${Q})
  if(NOT rc EQUAL 2 OR NOT err MATCHES "--pages: 'tiny' is neither huge nor small")
    fail("--pages=tiny: exit ${rc}\n${err}")
  endif()
  # the budget is shared: each measurement of a (call, size) ends after the same round, so
  # their counts differ by less than one batch
  run_ok(bench --calls-list=MPI_Allreduce --msizes-list=8 --nrep=100000000 --algs=all
         --interleave=7 --rt-bench-time-ms=60 --output-file=budget.dat ${Q})
  groups(budget.dat g)
  set(lo 100000000)
  set(hi 0)
  foreach(x ${g})
    string(REGEX MATCH "[0-9]+$" k "${x}")
    if(k LESS lo)
      set(lo ${k})
    endif()
    if(k GREATER hi)
      set(hi ${k})
    endif()
  endforeach()
  math(EXPR spread "${hi} - ${lo}")
  if(lo LESS 1 OR spread GREATER_EQUAL 7)
    fail("budget.dat: counts ${lo}..${hi} per algorithm: ${g}")
  endif()
  # --spread: the sizes take turns too; every measurement still has its nrep rows (the order
  # of the batches in time is not in the raw data: this checks the wiring, the header and the
  # budgets), and each size keeps its own budget, so the expensive one stops at its budget
  # while the cheap one goes on to its nrep
  run_ok(bench --calls-list=MPI_Allreduce,MPI_Bcast --msizes-list=8,1024 --nrep=23
         --algs=default,tuned,bcast_as_allgatherv --interleave=5 --spread --shuffle --verify
         --output-file=sp.dat ${Q})
  expect_rows(sp.dat 23 10)
  expect_header(sp.dat spread 1)
  expect_header(il.dat spread 0)
  # a budget of 1 s, not 0.1 s: on a loaded machine a descheduled 8 B batch took the whole 0.1 s
  run_ok(bench --calls-list=MPI_Allreduce --msizes-list=8,8388608 --nrep=2000 --algs=default,tuned
         --interleave=4 --spread --rt-bench-time-ms=1000 --output-file=spb.dat ${Q})
  groups(spb.dat g)
  string(REGEX MATCH "MPI_Allreduce default 8 ([0-9]+)" m "${g}")
  set(small ${CMAKE_MATCH_1})
  string(REGEX MATCH "MPI_Allreduce default 8388608 ([0-9]+)" m "${g}")
  set(big_default ${CMAKE_MATCH_1})
  string(REGEX MATCH "MPI_Allreduce tuned 8388608 ([0-9]+)" m "${g}")
  set(big_tuned ${CMAKE_MATCH_1})
  if(NOT big_default OR NOT big_tuned OR big_default GREATER_EQUAL 2000)
    fail("spb.dat: the 8 MiB size should stop at its budget before 2000: ${g}")
  endif()
  # 8 B calls are over 100x cheaper than 8 MiB ones: with a budget of its own the small size
  # measures more (a budget shared with the big size would stop both at the same round)
  if(NOT small OR NOT small GREATER big_default)
    fail("spb.dat: the 8 B size stopped with the 8 MiB one: ${g}")
  endif()
  run(rc out err bench --spread ${Q})
  if(NOT rc EQUAL 2 OR NOT err MATCHES "--spread: needs --interleave")
    fail("--spread without --interleave: exit ${rc}\n${err}")
  endif()
  run(rc out err bench --irregular=random --table --interleave=5 ${Q})
  if(NOT rc EQUAL 2 OR NOT err MATCHES "--interleave: cannot be combined with --table")
    fail("--interleave with --table: exit ${rc}\n${err}")
  endif()

elseif(CASE STREQUAL "usage")
  file(WRITE ${WORK}/bad.txt "MPI_Bcast x\n")
  file(WRITE ${WORK}/partial.txt "MPI_Bcast 1 5\n")
  file(WRITE ${WORK}/other.dat "#@nprocs=999\n#@procsync=dissemination\n")
  set(cases
    "--nrpe=5|--nrpe: unknown option"
    "--nrep=1O|--nrep: '1O' is not a whole number"
    "--proc-sync=barrier|--proc-sync: unknown method"
    "--algs=nope|--algs: 'nope' is not an algorithm of any listed collective"
    "--calls-list=MPI_Bcast --algs=allreduce_as_reduce_bcast|--algs: 'allreduce_as_reduce_bcast'"
    "--root=7|--root: 7 is not a rank"
    "--nrep-file=missing.txt|missing.txt: cannot read"
    "--nrep-file=bad.txt|bad.txt:1: expected"
    "--calls-list=MPI_Bcast --msizes-list=8 --nrep-file=partial.txt|--nrep-file: partial.txt has no row for MPI_Bcast 8"
    "--resume --output-file=other.dat|--resume: other.dat was measured with nprocs=999"
    "--comm-sizes=3|--comm-sizes: 3 is more than the 2 processes of this job"
    "--roots=2|--roots: 2 is not a rank of 2 processes"
    "--roots=1 --comm-sizes=2,1|--roots: 1 is not a rank of 1 processes \\(the smallest of --comm-sizes\\)")
  foreach(c ${cases})
    string(REPLACE "|" ";" parts "${c}")
    list(GET parts 0 args)
    list(GET parts 1 msg)
    separate_arguments(args UNIX_COMMAND "${args}")
    run(rc out err bench ${args})
    expect_one_error(${rc} 2 "${err}" "`${args}`")
    expect_match("${err}" "mpiguide: error: ${msg}" "`${args}`")
    if(out MATCHES "MPI_")
      fail("`${args}`: measured something:\n${out}")
    endif()
  endforeach()
  run(rc out err nrep --nrep=5)
  if(NOT rc EQUAL 2)
    fail("nrep --nrep=5: exit ${rc}")
  endif()
  run(rc out err bench --help)
  expect_match("${out}" "--rt-bench-time-ms" "bench --help")

elseif(CASE STREQUAL "budget")
  # the budget ends each measurement on every rank after the same observation; all its rows stay
  foreach(sync dissemination roundtime mpibarrier)
    run_ok(bench --calls-list=MPI_Bcast,MPI_Allreduce --msizes-list=8 --nrep=1000000
           --rt-bench-time-ms=40 --proc-sync=${sync} --output-file=${sync}.dat ${Q})
    groups(${sync}.dat g)
    list(LENGTH g len)
    if(NOT len EQUAL 2)
      fail("${sync}: ${len} measurements: ${g}")
    endif()
    foreach(x ${g})
      string(REGEX MATCH "[0-9]+$" n "${x}")
      if(n LESS 1 OR n GREATER_EQUAL 1000000)
        fail("${sync}: '${x}': the budget did not end the measurement")
      endif()
    endforeach()
  endforeach()
  # window sync: the schedule fixes the number of windows from the budget
  run_ok(bench --calls-list=MPI_Bcast --msizes-list=8 --nrep=1000000 --rt-bench-time-ms=40
         --proc-sync=window --window-size=500 --output-file=window.dat ${Q})
  expect_rows(window.dat 80 1)

elseif(CASE STREQUAL "resume")
  set(args bench --calls-list=MPI_Bcast --msize-interval=min=0,max=15 --nrep=1000000
      --rt-bench-time-ms=250 --output-file=raw.dat ${Q})
  string(REPLACE ";" " " cmd "${MPIEXEC} ${NPFLAG} ${NP} ${BIN} ${args}")
  # start, wait until three measurements are in the file, kill the launcher
  execute_process(COMMAND sh -c "
    timeout 200 ${cmd} >out.txt 2>err.txt &
    pid=$!
    i=0
    while [ $i -lt 1200 ]; do
      n=$(grep -v '^#' raw.dat 2>/dev/null | awk '{print $4}' | sort -u | wc -l)
      [ \"$n\" -ge 3 ] && break
      sleep 0.05; i=$((i+1))
    done
    kill -TERM $pid
    wait $pid
    # a rank may outlive its launcher for seconds and still append its measurement: resume
    # once the stopped run's rank 0 has let go of the file (bench's lock on it), at most 30 s
    i=0
    while ! flock -n raw.dat true && [ $i -lt 300 ]; do sleep 0.1; i=$((i+1)); done
    echo killed after $n" WORKING_DIRECTORY ${WORK} OUTPUT_VARIABLE killed)
  groups(raw.dat g)
  list(LENGTH g before)
  if(before LESS 3 OR before GREATER_EQUAL 16)
    fail("the killed run kept ${before} measurements (${killed}); want 3..15")
  endif()
  run_ok(${args} --resume)
  groups(raw.dat g)
  list(LENGTH g after)
  if(NOT after EQUAL 16)
    fail("after --resume: ${after} measurements, want 16: ${g}")
  endif()
  foreach(e RANGE 0 15)
    math(EXPR m "1 << ${e}")
    list(FILTER g EXCLUDE REGEX "^MPI_Bcast default ${m} [0-9]+$")
  endforeach()
  if(g)
    fail("after --resume: unexpected measurements ${g}")
  endif()
  expect_lines(raw.dat "^#@nprocs=" 1 "headers after --resume")
  # resuming a complete file measures nothing
  run_ok(${args} --resume)
  groups(raw.dat g)
  list(LENGTH g again)
  if(NOT again EQUAL 16)
    fail("second --resume changed the file: ${again}")
  endif()

elseif(CASE STREQUAL "locked")
  # while another process holds the lock on --output-file (as a stopped run's last rank does),
  # bench measures nothing, says so in one line, exits 1 and leaves the file as it was: with
  # --resume and without (which would otherwise truncate it)
  set(args bench --calls-list=MPI_Bcast --msizes-list=8,64 --nrep=20 --output-file=raw.dat ${Q})
  run_ok(${args})
  file(READ ${WORK}/raw.dat before)
  # one process holds the lock (sleep, on the descriptor the shell locked), so that killing it
  # frees the file
  execute_process(COMMAND sh -c "
    sh -c 'exec 9<raw.dat; flock 9; exec sleep 600' >/dev/null 2>&1 &
    i=0
    while flock -n raw.dat true && [ $i -lt 200 ]; do sleep 0.05; i=$((i+1)); done
    echo $!
    flock -n raw.dat true && echo free" WORKING_DIRECTORY ${WORK} OUTPUT_VARIABLE out)
  string(REGEX MATCH "^[0-9]+" holder "${out}")
  if(out MATCHES "free" OR NOT holder)
    execute_process(COMMAND kill ${holder})
    fail("the test's holder did not get the lock on raw.dat in 10 s: ${out}")
  endif()
  foreach(extra "--resume" "")
    run(rc out err ${args} ${extra})
    expect_one_error(${rc} 1 "${err}" "`${extra}` on a locked file")
    expect_match("${err}" "raw.dat: another process is writing this file" "locked ${extra}")
    file(READ ${WORK}/raw.dat now)
    if(NOT now STREQUAL before)
      execute_process(COMMAND kill ${holder})
      fail("`${extra}` on a locked file changed it")
    endif()
  endforeach()
  execute_process(COMMAND kill ${holder})
  execute_process(COMMAND sh -c "i=0; while ! flock -n raw.dat true && [ $i -lt 100 ]; do sleep 0.05; i=$((i+1)); done"
                  WORKING_DIRECTORY ${WORK})
  # once it is free, the run goes ahead
  run_ok(bench --calls-list=MPI_Bcast --msizes-list=8,64,512 --nrep=20 --output-file=raw.dat
         --resume ${Q})
  expect_rows(raw.dat 20 3)
  # --resume of a file that does not exist yet starts afresh: one header, every measurement
  run_ok(bench --calls-list=MPI_Bcast --msizes-list=8,64 --nrep=20 --output-file=new.dat
         --resume ${Q})
  expect_rows(new.dat 20 2)
  expect_lines(new.dat "^#@nprocs=" 1 "headers after --resume of a new file")

elseif(CASE STREQUAL "sync")
  foreach(sync mpibarrier MPI_Barrier dissemination dissem_barrier window roundtime)
    foreach(rt local global)
      set(f ${sync}-${rt}.dat)
      run_ok(bench --calls-list=MPI_Allreduce,MPI_Scatter --msizes-list=8,1024 --nrep=20
             --proc-sync=${sync} --runtime-type=${rt} --rt-barrier-count=2 --output-file=${f} ${Q})
      expect_rows(${f} 20 4)
      header_value(${f} procsync v)
      header_value(${f} runtime_type r)
      if(NOT r STREQUAL rt)
        fail("${f}: runtime_type=${r}")
      endif()
      header_value(${f} clock_sync_error_s e)
      if(NOT e MATCHES "^[0-9.]+e[-+][0-9]+$")
        fail("${f}: clock_sync_error_s=${e}")
      endif()
      execute_process(COMMAND awk "!/^#/ {print NF, $6}" ${WORK}/${f} OUTPUT_VARIABLE cols)
      if(sync MATCHES "window|roundtime")
        if(cols MATCHES "(^|\n)5 " OR NOT cols MATCHES "^6 [012]\n")
          fail("${f}: rows need a flag 0, 1 or 2:\n${cols}")
        endif()
      elseif(cols MATCHES "(^|\n)6 ")
        fail("${f}: barrier rows have no flag column")
      endif()
    endforeach()
  endforeach()

elseif(CASE STREQUAL "nrep")
  run_ok(nrep --calls-list=MPI_Bcast,MPI_Allreduce --msizes-list=1,64
         --rep-prediction=min=5,max=60,step=5 --output-file=pred.txt ${Q})
  file(STRINGS ${WORK}/pred.txt rows REGEX "^MPI_")
  list(LENGTH rows n)
  if(NOT n EQUAL 4)
    fail("pred.txt: ${n} rows: ${rows}")
  endif()
  header_value(pred.txt method m)
  if(NOT m STREQUAL "rse")
    fail("pred.txt: method=${m}")
  endif()
  foreach(r ${rows})
    string(REGEX MATCH "[0-9]+$" k "${r}")
    if(k LESS 5 OR k GREATER 60)
      fail("pred.txt: '${r}' outside min/max")
    endif()
  endforeach()
  # bench --nrep-file measures each (call, msize) exactly as often as predicted
  run_ok(bench --nrep-file=pred.txt --calls-list=MPI_Bcast,MPI_Allreduce --msizes-list=1,64
         --output-file=raw.dat ${Q})
  groups(raw.dat g)
  foreach(r ${rows})
    string(REGEX REPLACE "^([^ ]+) ([0-9]+) ([0-9]+)$" "\\1 default \\2 \\3" want "${r}")
    list(FIND g "${want}" at)
    if(at LESS 0)
      fail("raw.dat has no '${want}': ${g}")
    endif()
  endforeach()
  # the HPC Asia method
  run_ok(nrep --pred-method=hpcasia --calls-list=MPI_Bcast --msizes-list=1,4096
         --rep-prediction=min=5,max=300,step=1 --b1=3 --b2=3 --k=4 --output-file=asia.txt ${Q})
  header_value(asia.txt method m)
  file(STRINGS ${WORK}/asia.txt rows REGEX "^MPI_")
  list(LENGTH rows n)
  if(NOT m STREQUAL "hpcasia" OR NOT n EQUAL 2)
    fail("asia.txt: method=${m}, ${n} rows")
  endif()
  foreach(r ${rows})
    string(REGEX MATCH "[0-9]+$" k "${r}")
    if(k LESS 4 OR k GREATER 300)
      fail("asia.txt: '${r}' outside K..max")
    endif()
  endforeach()
  # the time budget of one prediction: a rule that cannot hold (RSE below 1e-9) with a maximum
  # of 10^7 observations would run for minutes; the budget ends each prediction, the rows hold
  # the observations made and a warning names every cut prediction
  header_value(pred.txt rt_bench_time_ms b)
  if(NOT b STREQUAL "5000")
    fail("pred.txt: default budget rt_bench_time_ms=${b}, expected 5000")
  endif()
  run(rc out err nrep --var-thres=1e-9 --rep-prediction=min=5,max=10000000,step=1
      --rt-bench-time-ms=300 --calls-list=MPI_Allreduce --msizes-list=8,1024
      --output-file=budget.txt ${Q})
  if(NOT rc EQUAL 0)
    fail("nrep with a budget: exit ${rc}:\n${err}")
  endif()
  foreach(m 8 1024)
    if(NOT err MATCHES "mpiguide: warning: MPI_Allreduce default ${m}: the rule did not hold within the time budget of 300 ms")
      fail("no budget warning for size ${m}:\n${err}")
    endif()
  endforeach()
  file(STRINGS ${WORK}/budget.txt rows REGEX "^MPI_Allreduce [0-9]+ [0-9]+$")
  list(LENGTH rows n)
  if(NOT n EQUAL 2)
    fail("budget.txt: ${rows}")
  endif()
  foreach(r ${rows})
    string(REGEX MATCH "[0-9]+$" k "${r}")
    if(k LESS 1 OR k GREATER_EQUAL 10000000)
      fail("budget.txt: '${r}' is not a count cut by the budget")
    endif()
  endforeach()
  # combined methods under round-time synchronisation, several algorithms
  run_ok(nrep --pred-method=rse,cov_mean --var-thres=0.05,0.05 --var-win=5
         --rep-prediction=min=10,max=80,step=5 --proc-sync=roundtime --calls-list=MPI_Bcast
         --algs=default,bcast_as_allgatherv --msizes-list=8 --output-file=both.txt ${Q})
  file(STRINGS ${WORK}/both.txt rows REGEX "^MPI_Bcast 8 [0-9]+$")
  list(LENGTH rows n)
  if(NOT n EQUAL 1)
    fail("both.txt: ${rows}")
  endif()

elseif(CASE STREQUAL "order")
  set(args --calls-list=MPI_Bcast,MPI_Allreduce,MPI_Gather,MPI_Scan --msizes-list=4,8,16
      --nrep=2 --algs=default,tuned ${Q})
  run_ok(bench ${args} --output-file=plain.dat)
  run_ok(bench ${args} --shuffle --seed=11 --output-file=a.dat)
  run_ok(bench ${args} --shuffle-jobs --seed=11 --output-file=b.dat)
  groups(plain.dat p)
  groups(a.dat a)
  groups(b.dat b)
  list(LENGTH a n)
  if(NOT n EQUAL 24 OR NOT a STREQUAL b)
    fail("the same seed must give the same order:\n${a}\n${b}")
  endif()
  if(a STREQUAL p)
    fail("--shuffle did not change the order")
  endif()
  list(SORT a)
  list(SORT p)
  if(NOT a STREQUAL p)
    fail("--shuffle changed what was measured")
  endif()
  header_value(a.dat seed s)
  if(NOT s EQUAL 11)
    fail("seed=${s}")
  endif()

elseif(CASE STREQUAL "summary")
  # (barrier sync: no observation is flagged, so all 30 are valid)
  run(rc out err bench --summary --calls-list=MPI_Bcast --msizes-list=8,64 --nrep=30
      --proc-sync=dissemination ${Q})
  expect_match("${out}" "^# test alg msize n_valid min median ci95_lo ci95_hi mean max\n"
               "summary header")
  if(out MATCHES "#@")
    fail("--summary without --output-file printed raw data:\n${out}")
  endif()
  expect_count("${out}" "MPI_Bcast default [0-9]+ 30 [0-9.]+ [0-9.]+ [0-9.]+ [0-9.]+ [0-9.]+ [0-9.]+\n"
               2 "summary lines")
  run(rc out err bench --summary=median --calls-list=MPI_Bcast --msizes-list=8 --nrep=9
      --proc-sync=mpibarrier --output-file=raw.dat ${Q})
  expect_rows(raw.dat 9 1)
  expect_match("${out}" "# test alg msize n_valid median ci95_lo ci95_hi\nMPI_Bcast default 8 9 [0-9.]+ [0-9.]+ [0-9.]+\n"
               "--summary=median")

elseif(CASE STREQUAL "declines")
  # quiet declines (issue 27): a candidate that declines the arguments (reduce_with_own_op has
  # no MPI_BAND) is skipped without a line per size; one line at the end names it and how many
  # sizes, and the raw data has a #@declined line per size
  run(rc out err bench --calls-list=MPI_Reduce --algs=default,reduce_with_own_op --op=MPI_BAND
      --msizes-list=8,64,512 --nrep=5 --output-file=raw.dat ${Q})
  if(NOT rc EQUAL 0)
    fail("exit ${rc}:\n${err}")
  endif()
  expect_count("${err}" "skipped" 0 "per-size skip lines")
  expect_count("${err}" "declined the measured arguments" 1 "decline summary lines")
  expect_match("${err}" "mpiguide: 1 candidate declined the measured arguments at 3 sizes [^\n]*reduce_with_own_op \\(MPI_Reduce, 3 sizes: the algorithm declines these arguments\\)"
               "the decline summary")
  expect_lines(raw.dat "^#@declined=MPI_Reduce reduce_with_own_op (8|64|512) the algorithm declines these arguments$" 3 "#@declined lines")

elseif(CASE STREQUAL "check_algs")
  # --algs on a check input line: the default and the named algorithms only; the guidelines of
  # the others are named as unchecked, and a bad name is an error before any measurement
  file(WRITE ${WORK}/in.txt "MPI_Allreduce --algs=allreduce_as_reduce_bcast --msizes-list=8 --nrep=3\n"
       "MPI_Bcast --msizes-list=8 --nrep=3\n")
  run(rc out err check -f in.txt -o out ${Q})
  if(NOT rc EQUAL 0)
    fail("check: exit ${rc}:\n${err}")
  endif()
  groups(out/raw/launch-1/MPI_Allreduce.dat g)
  if(NOT "${g}" STREQUAL "MPI_Allreduce default 8 3;MPI_Allreduce allreduce_as_reduce_bcast 8 3"
     AND NOT "${g}" STREQUAL "MPI_Allreduce allreduce_as_reduce_bcast 8 3;MPI_Allreduce default 8 3")
    fail("MPI_Allreduce.dat holds ${g}, want the default and allreduce_as_reduce_bcast")
  endif()
  expect_match("${out}" "Guidelines left unchecked[^\n]*\nMPI_Allreduce  GL6 allreduce_as_reducescatterblock_allgather"
               "unchecked guidelines")
  expect_count("${out}" " allreduce_as_reduce_bcast" 0 "the measured mock-up among the unchecked")
  expect_count("${out}" "\nMPI_Bcast  GL" 0 "a line without --algs among the unchecked")
  # without --algs the line measures every algorithm: several mock-ups of MPI_Bcast
  groups(out/raw/launch-1/MPI_Bcast.dat b)
  list(LENGTH b nb)
  if(nb LESS 3)
    fail("MPI_Bcast.dat holds ${b}, want every algorithm")
  endif()
  file(WRITE ${WORK}/bad.txt "MPI_Bcast --msizes-list=8\nMPI_Reduce --algs=bcast_as_scatter_allgather\n")
  run(rc out err check -f bad.txt -o bad ${Q})
  expect_one_error(${rc} 2 "${err}" "an algorithm of another collective")
  expect_match("${err}" "bad.txt:2: --algs: 'bcast_as_scatter_allgather' is not an algorithm" "the bad line")
  if(EXISTS ${WORK}/bad/raw/launch-1/MPI_Bcast.dat)
    fail("measured before the bad line was found")
  endif()
  file(WRITE ${WORK}/tuned.txt "MPI_Bcast --algs=default,tuned --msizes-list=8\n")
  run(rc out err check -f tuned.txt -o tuned ${Q})
  expect_one_error(${rc} 2 "${err}" "tuned in check")

elseif(CASE STREQUAL "table")
  # --table: the four columns of Traff's tables with numbers (average and minimum each)
  set(num "[0-9]+\\.[0-9][0-9][* ]")
  set(row "Random +10 +[0-9]+ +[0-9]+ +${num} +${num} +${num} +${num} +${num} +${num} +${num} +${num}\n")
  run(rc out err bench --irregular=random --b=10 --table --nrep=5 ${Q})
  if(NOT rc EQUAL 0 OR NOT err STREQUAL "")
    fail("--table: rc ${rc}, stderr with --quiet:\n${err}")
  endif()
  expect_match("${out}" "MPI_Gather +Guideline 2 +MPI_Gatherv +TUW_Gatherv" "--table header")
  expect_match("${out}" "\n *avg +min +avg +min +avg +min +avg +min *\n" "--table avg/min")
  expect_match("${out}" "${row}" "--table row")
  if(out MATCHES "#@|MPI_Scatterv")
    fail("--table without --output-file printed raw rows or a scatter table:\n${out}")
  endif()
  # the scatter counterpart; raw rows still go to --output-file, each after its `# table:` line
  run_ok(bench --irregular=random --b=10 --table --nrep=5 --calls-list=MPI_Gatherv,MPI_Scatterv
         --output-file=raw.dat ${Q})
  expect_rows(raw.dat 5 8)
  expect_lines(raw.dat "^# table: problem=random b=10$" 8 "`# table:` lines")
  run(rc out err bench --irregular=random --b=10 --table --nrep=5
      --calls-list=MPI_Gatherv,MPI_Scatterv ${Q})
  expect_match("${out}" "MPI_Scatter +Guideline 2 +MPI_Scatterv +TUW_Scatterv" "scatter header")
  expect_count("${out}" "${row}" 2 "Random rows (one in each table)")
  # usage errors (exit 2, one message, nothing measured)
  foreach(c "--irregular=nope --table|--irregular: unknown problem type 'nope'"
            "--irregular=all|--irregular: 'all' needs --table"
            "--irregular=same --table --calls-list=MPI_Bcast|--table: needs MPI_Gatherv or MPI_Scatterv"
            "--table|--table: needs --irregular=TYPE")
    string(REPLACE "|" ";" parts "${c}")
    list(GET parts 0 args)
    list(GET parts 1 msg)
    separate_arguments(args UNIX_COMMAND "${args}")
    run(rc out err bench ${args})
    expect_one_error(${rc} 2 "${err}" "`${args}`")
    if(NOT out STREQUAL "")
      fail("`${args}`: stdout:\n${out}")
    endif()
    expect_match("${err}" "mpiguide: error: ${msg}" "`${args}`")
  endforeach()

elseif(CASE STREQUAL "appcond")
  # --comm-sizes, --roots, --back-to-back: sections per communicator size, the conditions in the
  # header, results verified, and the roots really rotating (seen by MPIGUIDE_RECORD on the
  # intercepted `tuned` calls)
  run(rc out err bench --calls-list=MPI_Reduce,MPI_Bcast --msizes-list=8,64 --datatype=MPI_DOUBLE
      --op=MPI_SUM --algs=default,reduce_as_allreduce,bcast_as_allgatherv --comm-sizes=2,1
      --roots=rotate --back-to-back=3 --nrep=4 --verify --output-file=app.dat ${Q})
  if(NOT rc EQUAL 0)
    fail("bench with the application's conditions: exit ${rc}\n${err}")
  endif()
  expect_rows(app.dat 4 16)
  file(READ ${WORK}/app.dat t)
  foreach(re "\n#@roots=rotate\n" "\n#@timing=back-to-back\n#@batch=3\n"
          "\n#@comm_layout=2:1x2,1:1x1\n" "\n#@comm_size=2\nMPI_" "\n#@comm_size=1\nMPI_")
    expect_match("${t}" "${re}" "app.dat")
  endforeach()
  expect_match("${err}" "verify: MPI_Reduce reduce_as_allreduce 64: pass" "verified")
  set(ENV{MPIGUIDE_RECORD} ${WORK}/rec.txt)
  run_ok(bench --calls-list=MPI_Reduce --msizes-list=8 --algs=tuned --roots=rotate --nrep=6
         --warmup=0 --output-file=tuned.dat ${Q})
  unset(ENV{MPIGUIDE_RECORD})
  file(READ ${WORK}/rec.txt t)
  expect_match("${t}" "\nMPI_Reduce p=2 [^\n]* roots=0:[0-9]+,1:[0-9]+ roots_other=0 rotations=[1-9]"
               "rotating roots in the record")
  # a resumed run completes the sections, the cut measurement with its section line
  run_ok(bench --calls-list=MPI_Bcast --msizes-list=8,64 --comm-sizes=2,1 --nrep=3
         --output-file=res.dat ${Q})
  execute_process(COMMAND sh -c "head -c -20 res.dat > cut.dat && mv cut.dat res.dat"
                  WORKING_DIRECTORY ${WORK})
  run_ok(bench --calls-list=MPI_Bcast --msizes-list=8,64 --comm-sizes=2,1 --nrep=3
         --output-file=res.dat --resume ${Q})
  expect_rows(res.dat 3 4)

elseif(CASE STREQUAL "verify")
  # a deliberately wrong algorithm (test variant of the registry) is caught; correct ones pass
  run(rc out err bench --calls-list=MPI_Allreduce --msizes-list=8,64 --datatype=MPI_INT
      --op=MPI_SUM --algs=default,allreduce_as_reduce_bcast,allreduce_testonly_wrong,tuned
      --verify --nrep=3 --output-file=raw.dat ${Q})
  if(NOT rc EQUAL 1)
    fail("exit ${rc} with a wrong algorithm, want 1:\n${err}")
  endif()
  foreach(m 8 64)
    expect_match("${err}" "mpiguide: error: MPI_Allreduce allreduce_testonly_wrong ${m}: verify: result differs from the default on rank 0"
                 "wrong algorithm")
    expect_match("${err}" "mpiguide: verify: MPI_Allreduce allreduce_as_reduce_bcast ${m}: pass"
                 "correct algorithm")
    expect_match("${err}" "mpiguide: verify: MPI_Allreduce tuned ${m}: pass" "tuned")
  endforeach()
  expect_rows(raw.dat 3 8)
  # nonblocking library algorithms: the probe before the measurement completes its start, so
  # the default's reference result is not overwritten by a start still pending (MPICH)
  run(rc out err bench --calls-list=MPI_Iallreduce,MPI_Iallgather,MPI_Ibcast
      --msizes-list=8,64,4096 --datatype=MPI_INT --algs=library --verify --nrep=2
      --output-file=nb.dat ${Q})
  if(NOT rc EQUAL 0 OR err MATCHES "differs" OR NOT err MATCHES "verify: MPI_Iallreduce [a-z_]+ 4096: pass")
    fail("nonblocking library algorithms under --verify: exit ${rc}\n${err}")
  endif()
  # `all` leaves test-only rows out
  run(rc out err bench --calls-list=MPI_Allreduce --msizes-list=8 --algs=all --verify --nrep=2
      --output-file=all.dat ${Q})
  if(NOT rc EQUAL 0 OR err MATCHES "testonly")
    fail("--algs=all: exit ${rc}\n${err}")
  endif()
else()
  fail("unknown case")
endif()
