! A Fortran MPI program built WITHOUT any link to mpiguide; the interception tests LD_PRELOAD
! libmpiguide into it. Built three ways: mpif.h (default), `use mpi` (-DUSE_MPI_MODULE) and
! mpi_f08 (-DUSE_MPI_F08). Runs the intercepted collectives (with MPI_IN_PLACE where allowed)
! and checks every result.
program intercept_f
#if defined(USE_MPI_F08)
  use mpi_f08
#elif defined(USE_MPI_MODULE)
  use mpi
#endif
  implicit none
#if !defined(USE_MPI_F08) && !defined(USE_MPI_MODULE)
  include 'mpif.h'
#endif
  integer, parameter :: n = 12
  integer :: rank, p, i, k, ierr, nfail, total, root
  integer :: s(n * 16), d(n * 16), cnt(16), dsp(16)
#if defined(USE_MPI_F08)
  type(MPI_Comm) :: comm
#else
  integer :: comm
#endif

  call MPI_Init(ierr)
  comm = MPI_COMM_WORLD
  call MPI_Comm_rank(comm, rank, ierr)
  call MPI_Comm_size(comm, p, ierr)
  nfail = 0

  do k = 1, n
    s(k) = rank * 1000 + k
  end do
  call MPI_Allreduce(s, d, n, MPI_INTEGER, MPI_SUM, comm, ierr)
  do k = 1, n
    if (d(k) /= 1000 * p * (p - 1) / 2 + p * k) nfail = nfail + 1
  end do
  do k = 1, n
    d(k) = rank * 1000 + k
  end do
  call MPI_Allreduce(MPI_IN_PLACE, d, n, MPI_INTEGER, MPI_SUM, comm, ierr)
  do k = 1, n
    if (d(k) /= 1000 * p * (p - 1) / 2 + p * k) nfail = nfail + 1
  end do

  root = p - 1
  do k = 1, n
    d(k) = -1
    if (rank == root) d(k) = 7 * k
  end do
  call MPI_Bcast(d, n, MPI_INTEGER, root, comm, ierr)
  do k = 1, n
    if (d(k) /= 7 * k) nfail = nfail + 1
  end do

  call MPI_Allgather(s, n, MPI_INTEGER, d, n, MPI_INTEGER, comm, ierr)
  do i = 0, p - 1
    do k = 1, n
      if (d(i * n + k) /= i * 1000 + k) nfail = nfail + 1
    end do
  end do

  d = -1
  call MPI_Gather(s, n, MPI_INTEGER, d, n, MPI_INTEGER, 0, comm, ierr)
  if (rank == 0) then
    do i = 0, p - 1
      do k = 1, n
        if (d(i * n + k) /= i * 1000 + k) nfail = nfail + 1
      end do
    end do
  end if

  call MPI_Reduce(s, d, n, MPI_INTEGER, MPI_SUM, 0, comm, ierr)
  if (rank == 0) then
    do k = 1, n
      if (d(k) /= 1000 * p * (p - 1) / 2 + p * k) nfail = nfail + 1
    end do
  end if

  do i = 0, p - 1
    do k = 1, n
      s(i * n + k) = rank * 1000 + i * 100 + k
    end do
  end do
  call MPI_Alltoall(s, n, MPI_INTEGER, d, n, MPI_INTEGER, comm, ierr)
  do i = 0, p - 1
    do k = 1, n
      if (d(i * n + k) /= i * 1000 + rank * 100 + k) nfail = nfail + 1
    end do
  end do

  call MPI_Reduce_scatter_block(s, d, n, MPI_INTEGER, MPI_SUM, comm, ierr)
  do k = 1, n
    if (d(k) /= 1000 * p * (p - 1) / 2 + p * (rank * 100 + k)) nfail = nfail + 1
  end do

  do i = 1, p
    cnt(i) = n
    dsp(i) = (i - 1) * n
  end do
  call MPI_Reduce_scatter(s, d, cnt, MPI_INTEGER, MPI_SUM, comm, ierr)
  do k = 1, n
    if (d(k) /= 1000 * p * (p - 1) / 2 + p * (rank * 100 + k)) nfail = nfail + 1
  end do

  do k = 1, n
    s(k) = rank * 1000 + k
  end do
  call MPI_Scan(s, d, n, MPI_INTEGER, MPI_SUM, comm, ierr)
  do k = 1, n
    if (d(k) /= 1000 * rank * (rank + 1) / 2 + (rank + 1) * k) nfail = nfail + 1
  end do

  do i = 0, p - 1
    do k = 1, n
      s(i * n + k) = i * 100 + k
    end do
  end do
  call MPI_Scatter(s, n, MPI_INTEGER, d, n, MPI_INTEGER, 0, comm, ierr)
  do k = 1, n
    if (d(k) /= rank * 100 + k) nfail = nfail + 1
  end do
  call MPI_Scatterv(s, cnt, dsp, MPI_INTEGER, d, n, MPI_INTEGER, 0, comm, ierr)
  do k = 1, n
    if (d(k) /= rank * 100 + k) nfail = nfail + 1
  end do
  do k = 1, n
    s(k) = rank * 1000 + k
  end do
  d = -1
  call MPI_Gatherv(s, n, MPI_INTEGER, d, cnt, dsp, MPI_INTEGER, 0, comm, ierr)
  if (rank == 0) then
    do i = 0, p - 1
      do k = 1, n
        if (d(i * n + k) /= i * 1000 + k) nfail = nfail + 1
      end do
    end do
  end if

  call MPI_Allreduce(nfail, total, 1, MPI_INTEGER, MPI_SUM, comm, ierr)
  if (rank == 0) print '(a,i0,a)', 'intercept_f: ', total, ' failed'
  call MPI_Finalize(ierr)
  if (total /= 0) stop 1
end program intercept_f
