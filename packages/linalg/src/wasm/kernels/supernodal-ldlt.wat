;; The numeric phase of SupernodalLDLT (factorize and solve) as WebAssembly kernels
;; (supernodal-ldlt-wasm.ts loads them). They perform exactly the operations of the JavaScript code
;; of supernodal-ldlt.ts, in the same order (the same left-looking updates, the same 3×3-blocked
;; products, the same panel factorization, the same triangular solves), so factors and solutions
;; are bit for bit the same (supernodal-ldlt.spec.ts, supernodal-compliance.spec.ts); they only run
;; them without the bounds checks and boxing of the JavaScript loops.
;;
;; Every array lives in the kernels' memory; the functions read their addresses from a header of
;; i32 at byte 0 (LDLT_HEADER: nsuper 0, n 4, superStart 8, superRowPtr 12, superRows 16,
;; superValPtr 20, superOf 24, aPtr 28, aSrc 32, aDst 36, relPos 40, rowBase 44, colOff 48, head 52,
;; next 56, lpos 60, Lx 64, D 68, W 72, Av 76, perm 80, y 84, vec 88, status 92, pivot 96, tol 100):
;;   ldltFactor()   factorizes Av (the values of A) into Lx and D; status = −1, or the elimination
;;                  step whose pivot vanished (its value at `pivot`);
;;   ldltFactorRange(h, s0, s1, clear) the supernodes s0 … s1−1 of it, with the header at byte h
;;                  (a second thread's: its own scratch, lists and status; ldltUpdate and
;;                  ldltFactorBlock read the header the factorization set, $hdr), its large
;;                  products shared with a helper thread running ldltHelp once ldltSetTask gave
;;                  it a task block ($product);
;;   ldltSolve()    y = Pᵀ L⁻ᵀ D⁻¹ L⁻¹ P b, reading and writing the vector at `vec`;
;;   ldltBackward() vec = Pᵀ L⁻ᵀ y for the vector y (in the elimination order) at `y`;
;;   ldltProduct(…), ldltPairLowerSolve(…) (addresses as arguments): the dense steps of
;;                  SupernodalCompliance's forward solve, on blocks in the kernels' scratch region;
;;   ldltGram(…)    the terms of its Gram matrix Yᵀ·D⁻¹·Y from one supernode's block of Y.
;;
;; The paired layout of W (ldltUpdate, ldltFactorBlock, ldltPairLowerSolve): W(j, ·) =
;; L(row of j, 0:nk)·D(dBase + 0:nk) for j < ncol, by column pairs, the two columns of a pair
;; interleaved, W(j, k) at element 2·(⌊j/2⌋·nk + k) + j mod 2; the partner lane of an odd last
;; column is zeroed. Loops are `for (v = from; v < to; v++)` with `to` evaluated at every test:
;; (block $end_v (loop $for_v (br_if $end_v (v ≥ to)) … v++ (br $for_v))).
(module
  (import "env" "memory" (memory $env.memory 1 65536 shared))
  ;; the header the factorization reads (byte address): 0, or a second thread's own (per instance)
  (global $hdr (mut i32) (i32.const 0))
  ;; the task block shared with a helper thread (byte address; 0: no helper), per instance
  (global $task (mut i32) (i32.const 0))

  ;; ldltUpdate(d, p1, p2, s): the block of s −= L_d(rows p1.., :)·D_d·L_d(rows p1..p2−1, :)ᵀ (supernodal-ldlt.ts
  ;; `update`, through ldltProduct)
  (func $ldltUpdate (export "ldltUpdate") (param $d i32) (param $p1 i32) (param $p2 i32) (param $s i32)
    (local $superStart i32) (local $superRowPtr i32) (local $superRows i32) (local $superValPtr i32) (local $Lx i32)
    (local $D i32) (local $W i32) (local $rowBase i32) (local $colOff i32) (local $relPos i32) (local $dk1 i32)
    (local $nd i32) (local $rd0 i32) (local $xd i32) (local $k1 i32) (local $ns i32) (local $xs i32)
    (local $ndrow1 i32) (local $ndrow2 i32) (local $j i32) (local $i i32) (local $j2 i32) (local $src i32)
    (local $dst i32) (local $kk i32)
    ;; the header's fields
    (local.set $superStart (i32.load offset=8 (global.get $hdr)))
    (local.set $superRowPtr (i32.load offset=12 (global.get $hdr)))
    (local.set $superRows (i32.load offset=16 (global.get $hdr)))
    (local.set $superValPtr (i32.load offset=20 (global.get $hdr)))
    (local.set $Lx (i32.load offset=64 (global.get $hdr)))
    (local.set $D (i32.load offset=68 (global.get $hdr)))
    (local.set $W (i32.load offset=72 (global.get $hdr)))
    (local.set $rowBase (i32.load offset=44 (global.get $hdr)))
    (local.set $colOff (i32.load offset=48 (global.get $hdr)))
    (local.set $relPos (i32.load offset=40 (global.get $hdr)))
    ;; d's first column dk1 and width nd, its first row index rd0 and values xd; s's k1, ns, xs
    (local.set $dk1 (i32.load (i32.add (local.get $superStart) (i32.shl (local.get $d) (i32.const 2)))))
    (local.set $nd
      (i32.sub
        (i32.load (i32.add (local.get $superStart) (i32.shl (i32.add (local.get $d) (i32.const 1)) (i32.const 2))))
        (local.get $dk1)))
    (local.set $rd0 (i32.load (i32.add (local.get $superRowPtr) (i32.shl (local.get $d) (i32.const 2)))))
    (local.set $xd (i32.load (i32.add (local.get $superValPtr) (i32.shl (local.get $d) (i32.const 2)))))
    (local.set $k1 (i32.load (i32.add (local.get $superStart) (i32.shl (local.get $s) (i32.const 2)))))
    (local.set $ns
      (i32.sub
        (i32.load (i32.add (local.get $superStart) (i32.shl (i32.add (local.get $s) (i32.const 1)) (i32.const 2))))
        (local.get $k1)))
    (local.set $xs (i32.load (i32.add (local.get $superValPtr) (i32.shl (local.get $s) (i32.const 2)))))
    (local.set $ndrow1 (i32.sub (local.get $p2) (local.get $p1)))
    (local.set $ndrow2
      (i32.sub
        (i32.load (i32.add (local.get $superRowPtr) (i32.shl (i32.add (local.get $d) (i32.const 1)) (i32.const 2))))
        (local.get $p1)))
    ;; W(j, :) = L_d(row p1+j, :)·D_d (paired layout): dst = 2·(j >> 1)·nd + (j & 1)
    (local.set $j2 (i32.const 0))
    (block $end_j2
      (loop $for_j2
        (br_if $end_j2 (i32.ge_s (local.get $j2) (local.get $ndrow1)))
        (local.set $src
          (i32.add
            (local.get $xd)
            (i32.mul (i32.add (i32.sub (local.get $p1) (local.get $rd0)) (local.get $j2)) (local.get $nd))))
        (local.set $dst
          (i32.add
            (i32.shl (i32.mul (i32.shr_s (local.get $j2) (i32.const 1)) (local.get $nd)) (i32.const 1))
            (i32.and (local.get $j2) (i32.const 1))))
        (local.set $kk (i32.const 0))
        (block $end_kk
          (loop $for_kk
            (br_if $end_kk (i32.ge_s (local.get $kk) (local.get $nd)))
            (f64.store
              (i32.add
                (local.get $W)
                (i32.shl (i32.add (local.get $dst) (i32.shl (local.get $kk) (i32.const 1))) (i32.const 3)))
              (f64.mul
                (f64.load
                  (i32.add (local.get $Lx) (i32.shl (i32.add (local.get $src) (local.get $kk)) (i32.const 3))))
                (f64.load (i32.add (local.get $D) (i32.shl (i32.add (local.get $dk1) (local.get $kk)) (i32.const 3))))))
            (local.set $kk (i32.add (local.get $kk) (i32.const 1)))
            (br $for_kk)))
        (local.set $j2 (i32.add (local.get $j2) (i32.const 1)))
        (br $for_j2)))
    ;; an odd count: zero the partner lane of the last pair
    (if $I4 (i32.and (local.get $ndrow1) (i32.const 1))
      (then
        (local.set $dst
          (i32.add
            (i32.shl (i32.mul (i32.shr_s (local.get $ndrow1) (i32.const 1)) (local.get $nd)) (i32.const 1))
            (i32.const 1)))
        (local.set $kk (i32.const 0))
        (block $end_kk_2
          (loop $for_kk_2
            (br_if $end_kk_2 (i32.ge_s (local.get $kk) (local.get $nd)))
            (f64.store
              (i32.add
                (local.get $W)
                (i32.shl (i32.add (local.get $dst) (i32.shl (local.get $kk) (i32.const 1))) (i32.const 3)))
              (f64.const 0))
            (local.set $kk (i32.add (local.get $kk) (i32.const 1)))
            (br $for_kk_2)))))
    ;; colOff[j] = superRows[p1+j] − k1
    (local.set $j (i32.const 0))
    (block $end_j
      (loop $for_j
        (br_if $end_j (i32.ge_s (local.get $j) (local.get $ndrow1)))
        (i32.store
          (i32.add (local.get $colOff) (i32.shl (local.get $j) (i32.const 2)))
          (i32.sub
            (i32.load
              (i32.add (local.get $superRows) (i32.shl (i32.add (local.get $p1) (local.get $j)) (i32.const 2))))
            (local.get $k1)))
        (local.set $j (i32.add (local.get $j) (i32.const 1)))
        (br $for_j)))
    ;; rowBase[i] = xs + relPos[superRows[p1+i]]·ns
    (local.set $i (i32.const 0))
    (block $end_i
      (loop $for_i
        (br_if $end_i (i32.ge_s (local.get $i) (local.get $ndrow2)))
        (i32.store
          (i32.add (local.get $rowBase) (i32.shl (local.get $i) (i32.const 2)))
          (i32.add
            (local.get $xs)
            (i32.mul
              (i32.load
                (i32.add
                  (local.get $relPos)
                  (i32.shl
                    (i32.load
                      (i32.add
                        (local.get $superRows)
                        (i32.shl (i32.add (local.get $p1) (local.get $i)) (i32.const 2))))
                    (i32.const 2))))
              (local.get $ns))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $for_i)))
    ;; ldltProduct(L_d from row p1, W, nk = nd, ncol = ndrow1, nrow = ndrow2, into the block of s: lower)
    (call $product
      (i32.add
        (local.get $Lx)
        (i32.shl
          (i32.add (local.get $xd) (i32.mul (i32.sub (local.get $p1) (local.get $rd0)) (local.get $nd)))
          (i32.const 3)))
      (i32.shl (local.get $nd) (i32.const 3))
      (local.get $W)
      (local.get $nd)
      (local.get $ndrow1)
      (local.get $ndrow2)
      (local.get $Lx)
      (local.get $rowBase)
      (local.get $colOff)
      (i32.const 1)))

;; The products of the factorization shared with a helper thread (SupernodalLDLT's parallel
  ;; factorization). The task block at $task (i32 words): 0 seq (the last task posted), 1 done (the
  ;; last task finished), 2 claimed (the last task taken), 3 stop, 4 the number of calls (1 or 2),
  ;; 5…14 and 15…24 their ldltProduct arguments. A product is split between rows, so that the two
  ;; threads write different rows of the block (different cache lines): rows [0, h) here, rows
  ;; [h, nrow) posted, h even and chosen to halve the multiply-adds. With `lower` the posted rows are
  ;; the columns below h (all of them on or below the diagonal) and, when ncol > h, the triangle of
  ;; columns h… from row h. Each entry is one thread's dot product, summed as ldltProduct sums it:
  ;; the same bits as one thread. The posted part is taken by whichever thread claims it first (an
  ;; atomic exchange): the helper, or this thread when it is done with its own before the helper woke.
  (func $product (param $aB i32) (param $ldxB i32) (param $W i32) (param $nk i32) (param $ncol i32) (param $nrow i32) (param $Lx i32) (param $rowBase i32) (param $colOff i32) (param $lower i32)
    (local $t i32) (local $h i32) (local $half i32) (local $acc i32) (local $seq i32) (local $left i32)
    (local.set $t (global.get $task))
    ;; one thread: no helper, or a product too small to share (under 16 rows or 262144 multiply-adds
    ;; of its rectangle: smaller shared products made the trunk robot's factorization slower than one
    ;; thread's, their operands' trips between the cores costing more than the half they save)
    (if (i32.or
          (i32.or (i32.eqz (local.get $t)) (i32.lt_s (local.get $nrow) (i32.const 16)))
          (i32.lt_s (i32.mul (i32.mul (local.get $ncol) (local.get $nrow)) (local.get $nk)) (i32.const 262144)))
      (then
        (call $ldltProduct (local.get $aB) (local.get $ldxB) (local.get $W) (local.get $nk) (local.get $ncol)
          (local.get $nrow) (local.get $Lx) (local.get $rowBase) (local.get $colOff) (local.get $lower))
        (return)))
    ;; h: the first even row where the rows before hold half the entries (row i has min(i + 1, ncol)
    ;; of them with `lower`, ncol without)
    (local.set $half (i32.const 0))
    (local.set $h (i32.const 0))
    (block $counted
      (loop $count
        (br_if $counted (i32.ge_s (local.get $h) (local.get $nrow)))
        (local.set $half
          (i32.add (local.get $half)
            (select (select (i32.add (local.get $h) (i32.const 1)) (local.get $ncol) (i32.lt_s (local.get $h) (local.get $ncol)))
              (local.get $ncol) (local.get $lower))))
        (local.set $h (i32.add (local.get $h) (i32.const 1)))
        (br $count)))
    (local.set $half (i32.shr_s (local.get $half) (i32.const 1)))
    (local.set $h (i32.const 0))
    (local.set $acc (i32.const 0))
    (block $found
      (loop $next
        (br_if $found (i32.ge_s (local.get $acc) (local.get $half)))
        (local.set $acc
          (i32.add (local.get $acc)
            (select
              (i32.add
                (select (i32.add (local.get $h) (i32.const 1)) (local.get $ncol) (i32.lt_s (local.get $h) (local.get $ncol)))
                (select (i32.add (local.get $h) (i32.const 2)) (local.get $ncol) (i32.lt_s (i32.add (local.get $h) (i32.const 1)) (local.get $ncol))))
              (i32.shl (local.get $ncol) (i32.const 1))
              (local.get $lower))))
        (local.set $h (i32.add (local.get $h) (i32.const 2)))
        (br_if $next (i32.lt_s (i32.add (local.get $h) (i32.const 2)) (local.get $nrow)))))
    (local.set $left (i32.sub (local.get $nrow) (local.get $h)))
    ;; call 1: rows h…, the columns below h (all of them without `lower`), no diagonal among them
    (i32.store offset=20 (local.get $t) (i32.add (local.get $aB) (i32.mul (local.get $h) (local.get $ldxB))))
    (i32.store offset=24 (local.get $t) (local.get $ldxB))
    (i32.store offset=28 (local.get $t) (local.get $W))
    (i32.store offset=32 (local.get $t) (local.get $nk))
    (i32.store offset=36 (local.get $t)
      (select (select (local.get $h) (local.get $ncol) (i32.lt_s (local.get $h) (local.get $ncol))) (local.get $ncol) (local.get $lower)))
    (i32.store offset=40 (local.get $t) (local.get $left))
    (i32.store offset=44 (local.get $t) (local.get $Lx))
    (i32.store offset=48 (local.get $t) (i32.add (local.get $rowBase) (i32.shl (local.get $h) (i32.const 2))))
    (i32.store offset=52 (local.get $t) (local.get $colOff))
    (i32.store offset=56 (local.get $t) (i32.const 0))
    (i32.store offset=16 (local.get $t) (i32.const 1))
    ;; call 2 with `lower` and columns from h: the triangle from row h
    (if (i32.and (local.get $lower) (i32.gt_s (local.get $ncol) (local.get $h)))
      (then
        (i32.store offset=60 (local.get $t) (i32.add (local.get $aB) (i32.mul (local.get $h) (local.get $ldxB))))
        (i32.store offset=64 (local.get $t) (local.get $ldxB))
        (i32.store offset=68 (local.get $t) (i32.add (local.get $W) (i32.mul (local.get $h) (i32.shl (local.get $nk) (i32.const 3)))))
        (i32.store offset=72 (local.get $t) (local.get $nk))
        (i32.store offset=76 (local.get $t) (i32.sub (local.get $ncol) (local.get $h)))
        (i32.store offset=80 (local.get $t) (local.get $left))
        (i32.store offset=84 (local.get $t) (local.get $Lx))
        (i32.store offset=88 (local.get $t) (i32.add (local.get $rowBase) (i32.shl (local.get $h) (i32.const 2))))
        (i32.store offset=92 (local.get $t) (i32.add (local.get $colOff) (i32.shl (local.get $h) (i32.const 2))))
        (i32.store offset=96 (local.get $t) (i32.const 1))
        (i32.store offset=16 (local.get $t) (i32.const 2))))
    (local.set $seq (i32.add (i32.atomic.load (local.get $t)) (i32.const 1)))
    (i32.atomic.store (local.get $t) (local.get $seq))
    (drop (memory.atomic.notify (local.get $t) (i32.const 1)))
    ;; rows [0, h) here (with `lower`, only the columns below h reach them)
    (call $ldltProduct (local.get $aB) (local.get $ldxB) (local.get $W) (local.get $nk)
      (select (select (local.get $h) (local.get $ncol) (i32.lt_s (local.get $h) (local.get $ncol))) (local.get $ncol) (local.get $lower))
      (local.get $h) (local.get $Lx) (local.get $rowBase) (local.get $colOff) (local.get $lower))
    ;; the posted rows too when the helper has not taken them yet, else wait for them
    (if (i32.eq
          (i32.atomic.rmw.cmpxchg offset=8 (local.get $t) (i32.sub (local.get $seq) (i32.const 1)) (local.get $seq))
          (i32.sub (local.get $seq) (i32.const 1)))
      (then
        (call $runTask (local.get $t))
        (i32.atomic.store offset=4 (local.get $t) (local.get $seq)))
      (else
        (block $done
          (loop $wait
            (br_if $done (i32.eq (i32.atomic.load offset=4 (local.get $t)) (local.get $seq)))
            (br $wait))))))

  ;; the posted part of a product: its one or two calls (arguments in the task block at t)
  (func $runTask (param $t i32)
    (call $ldltProduct
      (i32.load offset=20 (local.get $t)) (i32.load offset=24 (local.get $t)) (i32.load offset=28 (local.get $t))
      (i32.load offset=32 (local.get $t)) (i32.load offset=36 (local.get $t)) (i32.load offset=40 (local.get $t))
      (i32.load offset=44 (local.get $t)) (i32.load offset=48 (local.get $t)) (i32.load offset=52 (local.get $t))
      (i32.load offset=56 (local.get $t)))
    (if (i32.eq (i32.load offset=16 (local.get $t)) (i32.const 2))
      (then
        (call $ldltProduct
          (i32.load offset=60 (local.get $t)) (i32.load offset=64 (local.get $t)) (i32.load offset=68 (local.get $t))
          (i32.load offset=72 (local.get $t)) (i32.load offset=76 (local.get $t)) (i32.load offset=80 (local.get $t))
          (i32.load offset=84 (local.get $t)) (i32.load offset=88 (local.get $t)) (i32.load offset=92 (local.get $t))
          (i32.load offset=96 (local.get $t))))))

  ;; ldltSetTask(t): this instance shares its products through the task block at t (0: it does not)
  (func $ldltSetTask (export "ldltSetTask") (param $t i32)
    (global.set $task (local.get $t)))

  ;; ldltHelp(t): the helper thread's loop: takes each product part posted at t and runs it, until
  ;; the stop word is set; spins, then sleeps on the seq word a millisecond at a time
  (func $ldltHelp (export "ldltHelp") (param $t i32)
    (local $seq i32) (local $spin i32)
    ;; a pool's other threads (no task block) have nothing to do
    (if (i32.eqz (local.get $t))
      (then
        (return)))
    (block $end
      (loop $poll
        (local.set $seq (i32.atomic.load (local.get $t)))
        (if (i32.ne (i32.atomic.load offset=8 (local.get $t)) (local.get $seq))
          (then
            (if (i32.eq
                  (i32.atomic.rmw.cmpxchg offset=8 (local.get $t) (i32.sub (local.get $seq) (i32.const 1)) (local.get $seq))
                  (i32.sub (local.get $seq) (i32.const 1)))
              (then
                (call $runTask (local.get $t))
                (i32.atomic.store offset=4 (local.get $t) (local.get $seq))))
            (local.set $spin (i32.const 0))
            (br $poll)))
        (br_if $end (i32.atomic.load offset=12 (local.get $t)))
        (local.set $spin (i32.add (local.get $spin) (i32.const 1)))
        (if (i32.gt_s (local.get $spin) (i32.const 2000000))
          (then
            (drop (memory.atomic.wait32 (local.get $t) (local.get $seq) (i64.const 1000000)))
            (local.set $spin (i32.const 0))))
        (br $poll))))

  ;; ldltProduct(aB, ldaB, wB, nk, ncol, nrow, cB, rowBaseB, colOffB, lower), addresses in bytes, in f64x2:
  ;; for j < ncol and i < nrow (i ≥ j when `lower`),
  ;;   C[rowBase[i] + colOff[j]] −= Σ_{k<nk} A(i, k)·W(j, k),   A(i, k) at aB + i·ldaB + 8k, C at cB,
  ;; W in the paired layout at wB. A tile is four rows by two pairs of columns (eight f64x2 sums, each
  ;; lane one entry's dot product summed in k order by lane-wise IEEE products and sums, no fused
  ;; multiply-add: every entry is the JavaScript code's to the bit), then single rows, then a last
  ;; pair. With `lower`, entries above the diagonal (i < j) are not written. The factorization's updates
  ;; (C = the block of a supernode, lower) and SupernodalCompliance's products below a supernode
  ;; (C = the blocks of Y, all rows) use it.
  (func $ldltProduct (export "ldltProduct") (param $aB i32) (param $ldxB i32) (param $W i32) (param $nk i32) (param $ncol i32) (param $nrow i32) (param $Lx i32) (param $rowBase i32) (param $colOff i32) (param $lower i32)
    (local $j i32) (local $i i32) (local $kk i32) (local $kw i32) (local $kEnd i32) (local $pairB i32) (local $nq i32)
    (local $dj i32) (local $b i32) (local $wq0 i32) (local $wq1 i32) (local $r0 i32) (local $r1 i32) (local $r2 i32)
    (local $r3 i32) (local $c0 i32) (local $c1 i32) (local $c2 i32) (local $c3 i32) (local $acc0 v128)
    (local $acc1 v128) (local $acc2 v128) (local $acc3 v128) (local $acc4 v128) (local $acc5 v128) (local $acc6 v128)
    (local $acc7 v128) (local $a v128) (local $w0 v128) (local $w1 v128)
    (local.set $pairB (i32.shl (local.get $nk) (i32.const 4)))
    (local.set $kEnd (i32.shl (local.get $nk) (i32.const 3)))
    ;; column blocks of two pairs while a column of the second pair exists
    (local.set $j (i32.const 0))
    (block $B0
      (loop $L1
        (br_if $B0 (i32.ge_s (i32.add (local.get $j) (i32.const 2)) (local.get $ncol)))
        ;; wq = W's pairs of the block; nq = the columns left; c_q = colOff[j + q] where that column exists
        (local.set $wq0
          (i32.add (local.get $W) (i32.mul (i32.shr_s (local.get $j) (i32.const 1)) (local.get $pairB))))
        (local.set $wq1 (i32.add (local.get $wq0) (local.get $pairB)))
        (local.set $nq (i32.sub (local.get $ncol) (local.get $j)))
        (if $I2 (i32.lt_s (i32.const 0) (local.get $nq))
          (then
            (local.set $c0
              (i32.load (i32.add (local.get $colOff) (i32.shl (i32.add (local.get $j) (i32.const 0)) (i32.const 2)))))))
        (if $I3 (i32.lt_s (i32.const 1) (local.get $nq))
          (then
            (local.set $c1
              (i32.load (i32.add (local.get $colOff) (i32.shl (i32.add (local.get $j) (i32.const 1)) (i32.const 2)))))))
        (if $I4 (i32.lt_s (i32.const 2) (local.get $nq))
          (then
            (local.set $c2
              (i32.load (i32.add (local.get $colOff) (i32.shl (i32.add (local.get $j) (i32.const 2)) (i32.const 2)))))))
        (if $I5 (i32.lt_s (i32.const 3) (local.get $nq))
          (then
            (local.set $c3
              (i32.load (i32.add (local.get $colOff) (i32.shl (i32.add (local.get $j) (i32.const 3)) (i32.const 2)))))))
        (local.set $i (i32.mul (local.get $j) (local.get $lower)))
        (block $B6
          (loop $L7
            (br_if $B6 (i32.ge_s (i32.add (local.get $i) (i32.const 3)) (local.get $nrow)))
            ;; a tile of 4 rows (r0…r3 = A's rows i…i+3) by 2 pairs: acc(rr, p) = Σ_k A(i+rr, k)·W(pair p, k)
            (local.set $r0 (i32.add (local.get $aB) (i32.mul (local.get $i) (local.get $ldxB))))
            (local.set $r1 (i32.add (local.get $r0) (local.get $ldxB)))
            (local.set $r2 (i32.add (local.get $r1) (local.get $ldxB)))
            (local.set $r3 (i32.add (local.get $r2) (local.get $ldxB)))
            (local.set $acc0 (f64x2.splat (f64.const 0)))
            (local.set $acc1 (f64x2.splat (f64.const 0)))
            (local.set $acc2 (f64x2.splat (f64.const 0)))
            (local.set $acc3 (f64x2.splat (f64.const 0)))
            (local.set $acc4 (f64x2.splat (f64.const 0)))
            (local.set $acc5 (f64x2.splat (f64.const 0)))
            (local.set $acc6 (f64x2.splat (f64.const 0)))
            (local.set $acc7 (f64x2.splat (f64.const 0)))
            (local.set $kk (i32.const 0))
            (local.set $kw (i32.const 0))
            ;; two k at a time (each sum still in k order), then the last k of an odd nk
            (block $B8
              (loop $L9
                (br_if $B8 (i32.ge_s (i32.add (local.get $kk) (i32.const 8)) (local.get $kEnd)))
                (local.set $w0 (v128.load (i32.add (local.get $wq0) (local.get $kw))))
                (local.set $w1 (v128.load (i32.add (local.get $wq1) (local.get $kw))))
                (local.set $a (v128.load64_splat (i32.add (local.get $r0) (local.get $kk))))
                (local.set $acc0 (f64x2.add (local.get $acc0) (f64x2.mul (local.get $a) (local.get $w0))))
                (local.set $acc1 (f64x2.add (local.get $acc1) (f64x2.mul (local.get $a) (local.get $w1))))
                (local.set $a (v128.load64_splat (i32.add (local.get $r1) (local.get $kk))))
                (local.set $acc2 (f64x2.add (local.get $acc2) (f64x2.mul (local.get $a) (local.get $w0))))
                (local.set $acc3 (f64x2.add (local.get $acc3) (f64x2.mul (local.get $a) (local.get $w1))))
                (local.set $a (v128.load64_splat (i32.add (local.get $r2) (local.get $kk))))
                (local.set $acc4 (f64x2.add (local.get $acc4) (f64x2.mul (local.get $a) (local.get $w0))))
                (local.set $acc5 (f64x2.add (local.get $acc5) (f64x2.mul (local.get $a) (local.get $w1))))
                (local.set $a (v128.load64_splat (i32.add (local.get $r3) (local.get $kk))))
                (local.set $acc6 (f64x2.add (local.get $acc6) (f64x2.mul (local.get $a) (local.get $w0))))
                (local.set $acc7 (f64x2.add (local.get $acc7) (f64x2.mul (local.get $a) (local.get $w1))))
                (local.set $w0 (v128.load offset=16 (i32.add (local.get $wq0) (local.get $kw))))
                (local.set $w1 (v128.load offset=16 (i32.add (local.get $wq1) (local.get $kw))))
                (local.set $a (v128.load64_splat offset=8 (i32.add (local.get $r0) (local.get $kk))))
                (local.set $acc0 (f64x2.add (local.get $acc0) (f64x2.mul (local.get $a) (local.get $w0))))
                (local.set $acc1 (f64x2.add (local.get $acc1) (f64x2.mul (local.get $a) (local.get $w1))))
                (local.set $a (v128.load64_splat offset=8 (i32.add (local.get $r1) (local.get $kk))))
                (local.set $acc2 (f64x2.add (local.get $acc2) (f64x2.mul (local.get $a) (local.get $w0))))
                (local.set $acc3 (f64x2.add (local.get $acc3) (f64x2.mul (local.get $a) (local.get $w1))))
                (local.set $a (v128.load64_splat offset=8 (i32.add (local.get $r2) (local.get $kk))))
                (local.set $acc4 (f64x2.add (local.get $acc4) (f64x2.mul (local.get $a) (local.get $w0))))
                (local.set $acc5 (f64x2.add (local.get $acc5) (f64x2.mul (local.get $a) (local.get $w1))))
                (local.set $a (v128.load64_splat offset=8 (i32.add (local.get $r3) (local.get $kk))))
                (local.set $acc6 (f64x2.add (local.get $acc6) (f64x2.mul (local.get $a) (local.get $w0))))
                (local.set $acc7 (f64x2.add (local.get $acc7) (f64x2.mul (local.get $a) (local.get $w1))))
                (local.set $kk (i32.add (local.get $kk) (i32.const 16)))
                (local.set $kw (i32.add (local.get $kw) (i32.const 32)))
                (br $L9)))
            (if (i32.lt_s (local.get $kk) (local.get $kEnd))
              (then
                (local.set $w0 (v128.load (i32.add (local.get $wq0) (local.get $kw))))
                (local.set $w1 (v128.load (i32.add (local.get $wq1) (local.get $kw))))
                (local.set $a (v128.load64_splat (i32.add (local.get $r0) (local.get $kk))))
                (local.set $acc0 (f64x2.add (local.get $acc0) (f64x2.mul (local.get $a) (local.get $w0))))
                (local.set $acc1 (f64x2.add (local.get $acc1) (f64x2.mul (local.get $a) (local.get $w1))))
                (local.set $a (v128.load64_splat (i32.add (local.get $r1) (local.get $kk))))
                (local.set $acc2 (f64x2.add (local.get $acc2) (f64x2.mul (local.get $a) (local.get $w0))))
                (local.set $acc3 (f64x2.add (local.get $acc3) (f64x2.mul (local.get $a) (local.get $w1))))
                (local.set $a (v128.load64_splat (i32.add (local.get $r2) (local.get $kk))))
                (local.set $acc4 (f64x2.add (local.get $acc4) (f64x2.mul (local.get $a) (local.get $w0))))
                (local.set $acc5 (f64x2.add (local.get $acc5) (f64x2.mul (local.get $a) (local.get $w1))))
                (local.set $a (v128.load64_splat (i32.add (local.get $r3) (local.get $kk))))
                (local.set $acc6 (f64x2.add (local.get $acc6) (f64x2.mul (local.get $a) (local.get $w0))))
                (local.set $acc7 (f64x2.add (local.get $acc7) (f64x2.mul (local.get $a) (local.get $w1))))))
            ;; Lx[rowBase[i+rr] + c_q] −= lane q mod 2 of acc(rr, ⌊q/2⌋), for the columns that exist (q < nq) on or
            ;; below the diagonal (i + rr ≥ j + q); dj = i − j when lower, else 3 (every guard i + rr ≥ j + q holds)
            (local.set $dj
              (i32.add
                (i32.sub (local.get $i) (i32.mul (local.get $j) (local.get $lower)))
                (i32.mul (i32.sub (i32.const 1) (local.get $lower)) (i32.const 3))))
            (local.set $b
              (i32.load (i32.add (local.get $rowBase) (i32.shl (i32.add (local.get $i) (i32.const 0)) (i32.const 2)))))
            (f64.store
              (i32.add (local.get $Lx) (i32.shl (i32.add (local.get $b) (local.get $c0)) (i32.const 3)))
              (f64.sub
                (f64.load (i32.add (local.get $Lx) (i32.shl (i32.add (local.get $b) (local.get $c0)) (i32.const 3))))
                (f64x2.extract_lane 0 (local.get $acc0))))
            (if $I10 (i32.and (i32.lt_s (i32.const 1) (local.get $nq)) (i32.ge_s (local.get $dj) (i32.const 1)))
              (then
                (f64.store
                  (i32.add (local.get $Lx) (i32.shl (i32.add (local.get $b) (local.get $c1)) (i32.const 3)))
                  (f64.sub
                    (f64.load
                      (i32.add (local.get $Lx) (i32.shl (i32.add (local.get $b) (local.get $c1)) (i32.const 3))))
                    (f64x2.extract_lane 1 (local.get $acc0))))))
            (if $I11 (i32.and (i32.lt_s (i32.const 2) (local.get $nq)) (i32.ge_s (local.get $dj) (i32.const 2)))
              (then
                (f64.store
                  (i32.add (local.get $Lx) (i32.shl (i32.add (local.get $b) (local.get $c2)) (i32.const 3)))
                  (f64.sub
                    (f64.load
                      (i32.add (local.get $Lx) (i32.shl (i32.add (local.get $b) (local.get $c2)) (i32.const 3))))
                    (f64x2.extract_lane 0 (local.get $acc1))))))
            (if $I12 (i32.and (i32.lt_s (i32.const 3) (local.get $nq)) (i32.ge_s (local.get $dj) (i32.const 3)))
              (then
                (f64.store
                  (i32.add (local.get $Lx) (i32.shl (i32.add (local.get $b) (local.get $c3)) (i32.const 3)))
                  (f64.sub
                    (f64.load
                      (i32.add (local.get $Lx) (i32.shl (i32.add (local.get $b) (local.get $c3)) (i32.const 3))))
                    (f64x2.extract_lane 1 (local.get $acc1))))))
            (local.set $b
              (i32.load (i32.add (local.get $rowBase) (i32.shl (i32.add (local.get $i) (i32.const 1)) (i32.const 2)))))
            (f64.store
              (i32.add (local.get $Lx) (i32.shl (i32.add (local.get $b) (local.get $c0)) (i32.const 3)))
              (f64.sub
                (f64.load (i32.add (local.get $Lx) (i32.shl (i32.add (local.get $b) (local.get $c0)) (i32.const 3))))
                (f64x2.extract_lane 0 (local.get $acc2))))
            (if $I13 (i32.lt_s (i32.const 1) (local.get $nq))
              (then
                (f64.store
                  (i32.add (local.get $Lx) (i32.shl (i32.add (local.get $b) (local.get $c1)) (i32.const 3)))
                  (f64.sub
                    (f64.load
                      (i32.add (local.get $Lx) (i32.shl (i32.add (local.get $b) (local.get $c1)) (i32.const 3))))
                    (f64x2.extract_lane 1 (local.get $acc2))))))
            (if $I14 (i32.and (i32.lt_s (i32.const 2) (local.get $nq)) (i32.ge_s (local.get $dj) (i32.const 1)))
              (then
                (f64.store
                  (i32.add (local.get $Lx) (i32.shl (i32.add (local.get $b) (local.get $c2)) (i32.const 3)))
                  (f64.sub
                    (f64.load
                      (i32.add (local.get $Lx) (i32.shl (i32.add (local.get $b) (local.get $c2)) (i32.const 3))))
                    (f64x2.extract_lane 0 (local.get $acc3))))))
            (if $I15 (i32.and (i32.lt_s (i32.const 3) (local.get $nq)) (i32.ge_s (local.get $dj) (i32.const 2)))
              (then
                (f64.store
                  (i32.add (local.get $Lx) (i32.shl (i32.add (local.get $b) (local.get $c3)) (i32.const 3)))
                  (f64.sub
                    (f64.load
                      (i32.add (local.get $Lx) (i32.shl (i32.add (local.get $b) (local.get $c3)) (i32.const 3))))
                    (f64x2.extract_lane 1 (local.get $acc3))))))
            (local.set $b
              (i32.load (i32.add (local.get $rowBase) (i32.shl (i32.add (local.get $i) (i32.const 2)) (i32.const 2)))))
            (f64.store
              (i32.add (local.get $Lx) (i32.shl (i32.add (local.get $b) (local.get $c0)) (i32.const 3)))
              (f64.sub
                (f64.load (i32.add (local.get $Lx) (i32.shl (i32.add (local.get $b) (local.get $c0)) (i32.const 3))))
                (f64x2.extract_lane 0 (local.get $acc4))))
            (if $I16 (i32.lt_s (i32.const 1) (local.get $nq))
              (then
                (f64.store
                  (i32.add (local.get $Lx) (i32.shl (i32.add (local.get $b) (local.get $c1)) (i32.const 3)))
                  (f64.sub
                    (f64.load
                      (i32.add (local.get $Lx) (i32.shl (i32.add (local.get $b) (local.get $c1)) (i32.const 3))))
                    (f64x2.extract_lane 1 (local.get $acc4))))))
            (if $I17 (i32.lt_s (i32.const 2) (local.get $nq))
              (then
                (f64.store
                  (i32.add (local.get $Lx) (i32.shl (i32.add (local.get $b) (local.get $c2)) (i32.const 3)))
                  (f64.sub
                    (f64.load
                      (i32.add (local.get $Lx) (i32.shl (i32.add (local.get $b) (local.get $c2)) (i32.const 3))))
                    (f64x2.extract_lane 0 (local.get $acc5))))))
            (if $I18 (i32.and (i32.lt_s (i32.const 3) (local.get $nq)) (i32.ge_s (local.get $dj) (i32.const 1)))
              (then
                (f64.store
                  (i32.add (local.get $Lx) (i32.shl (i32.add (local.get $b) (local.get $c3)) (i32.const 3)))
                  (f64.sub
                    (f64.load
                      (i32.add (local.get $Lx) (i32.shl (i32.add (local.get $b) (local.get $c3)) (i32.const 3))))
                    (f64x2.extract_lane 1 (local.get $acc5))))))
            (local.set $b
              (i32.load (i32.add (local.get $rowBase) (i32.shl (i32.add (local.get $i) (i32.const 3)) (i32.const 2)))))
            (f64.store
              (i32.add (local.get $Lx) (i32.shl (i32.add (local.get $b) (local.get $c0)) (i32.const 3)))
              (f64.sub
                (f64.load (i32.add (local.get $Lx) (i32.shl (i32.add (local.get $b) (local.get $c0)) (i32.const 3))))
                (f64x2.extract_lane 0 (local.get $acc6))))
            (if $I19 (i32.lt_s (i32.const 1) (local.get $nq))
              (then
                (f64.store
                  (i32.add (local.get $Lx) (i32.shl (i32.add (local.get $b) (local.get $c1)) (i32.const 3)))
                  (f64.sub
                    (f64.load
                      (i32.add (local.get $Lx) (i32.shl (i32.add (local.get $b) (local.get $c1)) (i32.const 3))))
                    (f64x2.extract_lane 1 (local.get $acc6))))))
            (if $I20 (i32.lt_s (i32.const 2) (local.get $nq))
              (then
                (f64.store
                  (i32.add (local.get $Lx) (i32.shl (i32.add (local.get $b) (local.get $c2)) (i32.const 3)))
                  (f64.sub
                    (f64.load
                      (i32.add (local.get $Lx) (i32.shl (i32.add (local.get $b) (local.get $c2)) (i32.const 3))))
                    (f64x2.extract_lane 0 (local.get $acc7))))))
            (if $I21 (i32.lt_s (i32.const 3) (local.get $nq))
              (then
                (f64.store
                  (i32.add (local.get $Lx) (i32.shl (i32.add (local.get $b) (local.get $c3)) (i32.const 3)))
                  (f64.sub
                    (f64.load
                      (i32.add (local.get $Lx) (i32.shl (i32.add (local.get $b) (local.get $c3)) (i32.const 3))))
                    (f64x2.extract_lane 1 (local.get $acc7))))))
            (local.set $i (i32.add (local.get $i) (i32.const 4)))
            (br $L7)))
        (block $B22
          (loop $L23
            (br_if $B22 (i32.ge_s (local.get $i) (local.get $nrow)))
            ;; a tile of 1 row by 2 pairs
            (local.set $r0 (i32.add (local.get $aB) (i32.mul (local.get $i) (local.get $ldxB))))
            (local.set $acc0 (f64x2.splat (f64.const 0)))
            (local.set $acc1 (f64x2.splat (f64.const 0)))
            (local.set $kk (i32.const 0))
            (local.set $kw (i32.const 0))
            (block $B24
              (loop $L25
                (br_if $B24 (i32.ge_s (local.get $kk) (local.get $kEnd)))
                (local.set $w0 (v128.load (i32.add (local.get $wq0) (local.get $kw))))
                (local.set $w1 (v128.load (i32.add (local.get $wq1) (local.get $kw))))
                (local.set $a (v128.load64_splat (i32.add (local.get $r0) (local.get $kk))))
                (local.set $acc0 (f64x2.add (local.get $acc0) (f64x2.mul (local.get $a) (local.get $w0))))
                (local.set $acc1 (f64x2.add (local.get $acc1) (f64x2.mul (local.get $a) (local.get $w1))))
                (local.set $kk (i32.add (local.get $kk) (i32.const 8)))
                (local.set $kw (i32.add (local.get $kw) (i32.const 16)))
                (br $L25)))
            (local.set $dj
              (i32.add
                (i32.sub (local.get $i) (i32.mul (local.get $j) (local.get $lower)))
                (i32.mul (i32.sub (i32.const 1) (local.get $lower)) (i32.const 3))))
            (local.set $b
              (i32.load (i32.add (local.get $rowBase) (i32.shl (i32.add (local.get $i) (i32.const 0)) (i32.const 2)))))
            (f64.store
              (i32.add (local.get $Lx) (i32.shl (i32.add (local.get $b) (local.get $c0)) (i32.const 3)))
              (f64.sub
                (f64.load (i32.add (local.get $Lx) (i32.shl (i32.add (local.get $b) (local.get $c0)) (i32.const 3))))
                (f64x2.extract_lane 0 (local.get $acc0))))
            (if $I26 (i32.and (i32.lt_s (i32.const 1) (local.get $nq)) (i32.ge_s (local.get $dj) (i32.const 1)))
              (then
                (f64.store
                  (i32.add (local.get $Lx) (i32.shl (i32.add (local.get $b) (local.get $c1)) (i32.const 3)))
                  (f64.sub
                    (f64.load
                      (i32.add (local.get $Lx) (i32.shl (i32.add (local.get $b) (local.get $c1)) (i32.const 3))))
                    (f64x2.extract_lane 1 (local.get $acc0))))))
            (if $I27 (i32.and (i32.lt_s (i32.const 2) (local.get $nq)) (i32.ge_s (local.get $dj) (i32.const 2)))
              (then
                (f64.store
                  (i32.add (local.get $Lx) (i32.shl (i32.add (local.get $b) (local.get $c2)) (i32.const 3)))
                  (f64.sub
                    (f64.load
                      (i32.add (local.get $Lx) (i32.shl (i32.add (local.get $b) (local.get $c2)) (i32.const 3))))
                    (f64x2.extract_lane 0 (local.get $acc1))))))
            (if $I28 (i32.and (i32.lt_s (i32.const 3) (local.get $nq)) (i32.ge_s (local.get $dj) (i32.const 3)))
              (then
                (f64.store
                  (i32.add (local.get $Lx) (i32.shl (i32.add (local.get $b) (local.get $c3)) (i32.const 3)))
                  (f64.sub
                    (f64.load
                      (i32.add (local.get $Lx) (i32.shl (i32.add (local.get $b) (local.get $c3)) (i32.const 3))))
                    (f64x2.extract_lane 1 (local.get $acc1))))))
            (local.set $i (i32.add (local.get $i) (i32.const 1)))
            (br $L23)))
        (local.set $j (i32.add (local.get $j) (i32.const 4)))
        (br $L1)))
    ;; a last pair (one or two columns): tiles of 4 rows by 1 pair, then of 1 row
    (if $I29 (i32.lt_s (local.get $j) (local.get $ncol))
      (then
        (local.set $wq0
          (i32.add (local.get $W) (i32.mul (i32.shr_s (local.get $j) (i32.const 1)) (local.get $pairB))))
        (local.set $nq (i32.sub (local.get $ncol) (local.get $j)))
        (if $I30 (i32.lt_s (i32.const 0) (local.get $nq))
          (then
            (local.set $c0
              (i32.load (i32.add (local.get $colOff) (i32.shl (i32.add (local.get $j) (i32.const 0)) (i32.const 2)))))))
        (if $I31 (i32.lt_s (i32.const 1) (local.get $nq))
          (then
            (local.set $c1
              (i32.load (i32.add (local.get $colOff) (i32.shl (i32.add (local.get $j) (i32.const 1)) (i32.const 2)))))))
        (local.set $i (i32.mul (local.get $j) (local.get $lower)))
        (block $B32
          (loop $L33
            (br_if $B32 (i32.ge_s (i32.add (local.get $i) (i32.const 3)) (local.get $nrow)))
            (local.set $r0 (i32.add (local.get $aB) (i32.mul (local.get $i) (local.get $ldxB))))
            (local.set $r1 (i32.add (local.get $r0) (local.get $ldxB)))
            (local.set $r2 (i32.add (local.get $r1) (local.get $ldxB)))
            (local.set $r3 (i32.add (local.get $r2) (local.get $ldxB)))
            (local.set $acc0 (f64x2.splat (f64.const 0)))
            (local.set $acc1 (f64x2.splat (f64.const 0)))
            (local.set $acc2 (f64x2.splat (f64.const 0)))
            (local.set $acc3 (f64x2.splat (f64.const 0)))
            (local.set $kk (i32.const 0))
            (local.set $kw (i32.const 0))
            (block $B34
              (loop $L35
                (br_if $B34 (i32.ge_s (local.get $kk) (local.get $kEnd)))
                (local.set $w0 (v128.load (i32.add (local.get $wq0) (local.get $kw))))
                (local.set $a (v128.load64_splat (i32.add (local.get $r0) (local.get $kk))))
                (local.set $acc0 (f64x2.add (local.get $acc0) (f64x2.mul (local.get $a) (local.get $w0))))
                (local.set $a (v128.load64_splat (i32.add (local.get $r1) (local.get $kk))))
                (local.set $acc1 (f64x2.add (local.get $acc1) (f64x2.mul (local.get $a) (local.get $w0))))
                (local.set $a (v128.load64_splat (i32.add (local.get $r2) (local.get $kk))))
                (local.set $acc2 (f64x2.add (local.get $acc2) (f64x2.mul (local.get $a) (local.get $w0))))
                (local.set $a (v128.load64_splat (i32.add (local.get $r3) (local.get $kk))))
                (local.set $acc3 (f64x2.add (local.get $acc3) (f64x2.mul (local.get $a) (local.get $w0))))
                (local.set $kk (i32.add (local.get $kk) (i32.const 8)))
                (local.set $kw (i32.add (local.get $kw) (i32.const 16)))
                (br $L35)))
            (local.set $dj
              (i32.add
                (i32.sub (local.get $i) (i32.mul (local.get $j) (local.get $lower)))
                (i32.mul (i32.sub (i32.const 1) (local.get $lower)) (i32.const 3))))
            (local.set $b
              (i32.load (i32.add (local.get $rowBase) (i32.shl (i32.add (local.get $i) (i32.const 0)) (i32.const 2)))))
            (f64.store
              (i32.add (local.get $Lx) (i32.shl (i32.add (local.get $b) (local.get $c0)) (i32.const 3)))
              (f64.sub
                (f64.load (i32.add (local.get $Lx) (i32.shl (i32.add (local.get $b) (local.get $c0)) (i32.const 3))))
                (f64x2.extract_lane 0 (local.get $acc0))))
            (if $I36 (i32.and (i32.lt_s (i32.const 1) (local.get $nq)) (i32.ge_s (local.get $dj) (i32.const 1)))
              (then
                (f64.store
                  (i32.add (local.get $Lx) (i32.shl (i32.add (local.get $b) (local.get $c1)) (i32.const 3)))
                  (f64.sub
                    (f64.load
                      (i32.add (local.get $Lx) (i32.shl (i32.add (local.get $b) (local.get $c1)) (i32.const 3))))
                    (f64x2.extract_lane 1 (local.get $acc0))))))
            (local.set $b
              (i32.load (i32.add (local.get $rowBase) (i32.shl (i32.add (local.get $i) (i32.const 1)) (i32.const 2)))))
            (f64.store
              (i32.add (local.get $Lx) (i32.shl (i32.add (local.get $b) (local.get $c0)) (i32.const 3)))
              (f64.sub
                (f64.load (i32.add (local.get $Lx) (i32.shl (i32.add (local.get $b) (local.get $c0)) (i32.const 3))))
                (f64x2.extract_lane 0 (local.get $acc1))))
            (if $I37 (i32.lt_s (i32.const 1) (local.get $nq))
              (then
                (f64.store
                  (i32.add (local.get $Lx) (i32.shl (i32.add (local.get $b) (local.get $c1)) (i32.const 3)))
                  (f64.sub
                    (f64.load
                      (i32.add (local.get $Lx) (i32.shl (i32.add (local.get $b) (local.get $c1)) (i32.const 3))))
                    (f64x2.extract_lane 1 (local.get $acc1))))))
            (local.set $b
              (i32.load (i32.add (local.get $rowBase) (i32.shl (i32.add (local.get $i) (i32.const 2)) (i32.const 2)))))
            (f64.store
              (i32.add (local.get $Lx) (i32.shl (i32.add (local.get $b) (local.get $c0)) (i32.const 3)))
              (f64.sub
                (f64.load (i32.add (local.get $Lx) (i32.shl (i32.add (local.get $b) (local.get $c0)) (i32.const 3))))
                (f64x2.extract_lane 0 (local.get $acc2))))
            (if $I38 (i32.lt_s (i32.const 1) (local.get $nq))
              (then
                (f64.store
                  (i32.add (local.get $Lx) (i32.shl (i32.add (local.get $b) (local.get $c1)) (i32.const 3)))
                  (f64.sub
                    (f64.load
                      (i32.add (local.get $Lx) (i32.shl (i32.add (local.get $b) (local.get $c1)) (i32.const 3))))
                    (f64x2.extract_lane 1 (local.get $acc2))))))
            (local.set $b
              (i32.load (i32.add (local.get $rowBase) (i32.shl (i32.add (local.get $i) (i32.const 3)) (i32.const 2)))))
            (f64.store
              (i32.add (local.get $Lx) (i32.shl (i32.add (local.get $b) (local.get $c0)) (i32.const 3)))
              (f64.sub
                (f64.load (i32.add (local.get $Lx) (i32.shl (i32.add (local.get $b) (local.get $c0)) (i32.const 3))))
                (f64x2.extract_lane 0 (local.get $acc3))))
            (if $I39 (i32.lt_s (i32.const 1) (local.get $nq))
              (then
                (f64.store
                  (i32.add (local.get $Lx) (i32.shl (i32.add (local.get $b) (local.get $c1)) (i32.const 3)))
                  (f64.sub
                    (f64.load
                      (i32.add (local.get $Lx) (i32.shl (i32.add (local.get $b) (local.get $c1)) (i32.const 3))))
                    (f64x2.extract_lane 1 (local.get $acc3))))))
            (local.set $i (i32.add (local.get $i) (i32.const 4)))
            (br $L33)))
        (block $B40
          (loop $L41
            (br_if $B40 (i32.ge_s (local.get $i) (local.get $nrow)))
            (local.set $r0 (i32.add (local.get $aB) (i32.mul (local.get $i) (local.get $ldxB))))
            (local.set $acc0 (f64x2.splat (f64.const 0)))
            (local.set $kk (i32.const 0))
            (local.set $kw (i32.const 0))
            (block $B42
              (loop $L43
                (br_if $B42 (i32.ge_s (local.get $kk) (local.get $kEnd)))
                (local.set $w0 (v128.load (i32.add (local.get $wq0) (local.get $kw))))
                (local.set $a (v128.load64_splat (i32.add (local.get $r0) (local.get $kk))))
                (local.set $acc0 (f64x2.add (local.get $acc0) (f64x2.mul (local.get $a) (local.get $w0))))
                (local.set $kk (i32.add (local.get $kk) (i32.const 8)))
                (local.set $kw (i32.add (local.get $kw) (i32.const 16)))
                (br $L43)))
            (local.set $dj
              (i32.add
                (i32.sub (local.get $i) (i32.mul (local.get $j) (local.get $lower)))
                (i32.mul (i32.sub (i32.const 1) (local.get $lower)) (i32.const 3))))
            (local.set $b
              (i32.load (i32.add (local.get $rowBase) (i32.shl (i32.add (local.get $i) (i32.const 0)) (i32.const 2)))))
            (f64.store
              (i32.add (local.get $Lx) (i32.shl (i32.add (local.get $b) (local.get $c0)) (i32.const 3)))
              (f64.sub
                (f64.load (i32.add (local.get $Lx) (i32.shl (i32.add (local.get $b) (local.get $c0)) (i32.const 3))))
                (f64x2.extract_lane 0 (local.get $acc0))))
            (if $I44 (i32.and (i32.lt_s (i32.const 1) (local.get $nq)) (i32.ge_s (local.get $dj) (i32.const 1)))
              (then
                (f64.store
                  (i32.add (local.get $Lx) (i32.shl (i32.add (local.get $b) (local.get $c1)) (i32.const 3)))
                  (f64.sub
                    (f64.load
                      (i32.add (local.get $Lx) (i32.shl (i32.add (local.get $b) (local.get $c1)) (i32.const 3))))
                    (f64x2.extract_lane 1 (local.get $acc0))))))
            (local.set $i (i32.add (local.get $i) (i32.const 1)))
            (br $L41))))))

  ;; ldltFactorBlock(s): dense LDLᵀ of the block of s by panels of LDLT_PANEL = 24 columns (supernodal-ldlt.ts
  ;; `factorBlock`); on a vanishing pivot it writes the elimination step to `status` and the pivot to
  ;; `pivot` and returns.
  (func $ldltFactorBlock (export "ldltFactorBlock") (param $s i32)
    (local $superStart i32) (local $superRowPtr i32) (local $superValPtr i32) (local $Lx i32) (local $D i32)
    (local $W i32) (local $rowBase i32) (local $colOff i32) (local $status i32) (local $pivot i32) (local $tol i32)
    (local $k1 i32) (local $ns i32) (local $nrows i32) (local $xs i32) (local $p0 i32) (local $p1 i32) (local $nb i32)
    (local $j i32) (local $i i32) (local $col i32) (local $wrow i32) (local $rk i32) (local $m i32) (local $r0 i32)
    (local $r1 i32) (local $dk f64) (local $l f64) (local $w f64) (local $s0 f64) (local $s1 f64) (local $tol2 f64)
    (local $j2 i32) (local $src i32) (local $dst i32) (local $kk i32) (local $ldB i32) (local $tB i32) (local $rA i32)
    (local $mB i32) (local $mEnd i32) (local $wB i32) (local $cB i32) (local $v0 v128) (local $v1 v128)
    (local $v2 v128) (local $v3 v128) (local $wv v128) (local $dv v128) (local $tm i32)
    (local.set $superStart (i32.load offset=8 (global.get $hdr)))
    (local.set $superRowPtr (i32.load offset=12 (global.get $hdr)))
    (local.set $superValPtr (i32.load offset=20 (global.get $hdr)))
    (local.set $Lx (i32.load offset=64 (global.get $hdr)))
    (local.set $D (i32.load offset=68 (global.get $hdr)))
    (local.set $W (i32.load offset=72 (global.get $hdr)))
    (local.set $rowBase (i32.load offset=44 (global.get $hdr)))
    (local.set $colOff (i32.load offset=48 (global.get $hdr)))
    (local.set $status (i32.load offset=92 (global.get $hdr)))
    (local.set $pivot (i32.load offset=96 (global.get $hdr)))
    (local.set $tol (i32.load offset=100 (global.get $hdr)))
    (local.set $tol2 (f64.load (i32.add (local.get $tol) (i32.shl (i32.const 0) (i32.const 3)))))
    (local.set $k1 (i32.load (i32.add (local.get $superStart) (i32.shl (local.get $s) (i32.const 2)))))
    (local.set $ns
      (i32.sub
        (i32.load (i32.add (local.get $superStart) (i32.shl (i32.add (local.get $s) (i32.const 1)) (i32.const 2))))
        (local.get $k1)))
    (local.set $nrows
      (i32.sub
        (i32.load (i32.add (local.get $superRowPtr) (i32.shl (i32.add (local.get $s) (i32.const 1)) (i32.const 2))))
        (i32.load (i32.add (local.get $superRowPtr) (i32.shl (local.get $s) (i32.const 2))))))
    (local.set $xs (i32.load (i32.add (local.get $superValPtr) (i32.shl (local.get $s) (i32.const 2)))))
    ;; for (p0 = 0; p0 < ns; p0 += PANEL), p1 = min(ns, p0 + PANEL), nb = p1 − p0
    (local.set $p0 (i32.const 0))
    (block $B0
      (loop $L1
        (br_if $B0 (i32.ge_s (local.get $p0) (local.get $ns)))
        (local.set $p1 (i32.add (local.get $p0) (i32.const 24)))
        (if $I2 (i32.gt_s (local.get $p1) (local.get $ns))
          (then
            (local.set $p1 (local.get $ns))))
        (local.set $nb (i32.sub (local.get $p1) (local.get $p0)))
        ;; the panel −= L(p0.., 0:p0)·D·L(p0:p1, 0:p0)ᵀ: W (paired layout), colOff, rowBase, then ldltProduct
        (if $I3 (i32.gt_s (local.get $p0) (i32.const 0))
          (then
            (local.set $j2 (i32.const 0))
            (block $end_j2
              (loop $for_j2
                (br_if $end_j2 (i32.ge_s (local.get $j2) (local.get $nb)))
                (local.set $src
                  (i32.add (local.get $xs) (i32.mul (i32.add (local.get $p0) (local.get $j2)) (local.get $ns))))
                (local.set $dst
                  (i32.add
                    (i32.shl (i32.mul (i32.shr_s (local.get $j2) (i32.const 1)) (local.get $p0)) (i32.const 1))
                    (i32.and (local.get $j2) (i32.const 1))))
                (local.set $kk (i32.const 0))
                (block $end_kk
                  (loop $for_kk
                    (br_if $end_kk (i32.ge_s (local.get $kk) (local.get $p0)))
                    (f64.store
                      (i32.add
                        (local.get $W)
                        (i32.shl (i32.add (local.get $dst) (i32.shl (local.get $kk) (i32.const 1))) (i32.const 3)))
                      (f64.mul
                        (f64.load
                          (i32.add (local.get $Lx) (i32.shl (i32.add (local.get $src) (local.get $kk)) (i32.const 3))))
                        (f64.load
                          (i32.add (local.get $D) (i32.shl (i32.add (local.get $k1) (local.get $kk)) (i32.const 3))))))
                    (local.set $kk (i32.add (local.get $kk) (i32.const 1)))
                    (br $for_kk)))
                (local.set $j2 (i32.add (local.get $j2) (i32.const 1)))
                (br $for_j2)))
            (if $I8 (i32.and (local.get $nb) (i32.const 1))
              (then
                (local.set $dst
                  (i32.add
                    (i32.shl (i32.mul (i32.shr_s (local.get $nb) (i32.const 1)) (local.get $p0)) (i32.const 1))
                    (i32.const 1)))
                (local.set $kk (i32.const 0))
                (block $end_kk_2
                  (loop $for_kk_2
                    (br_if $end_kk_2 (i32.ge_s (local.get $kk) (local.get $p0)))
                    (f64.store
                      (i32.add
                        (local.get $W)
                        (i32.shl (i32.add (local.get $dst) (i32.shl (local.get $kk) (i32.const 1))) (i32.const 3)))
                      (f64.const 0))
                    (local.set $kk (i32.add (local.get $kk) (i32.const 1)))
                    (br $for_kk_2)))))
            (local.set $j (i32.const 0))
            (block $end_j
              (loop $for_j
                (br_if $end_j (i32.ge_s (local.get $j) (local.get $nb)))
                (i32.store
                  (i32.add (local.get $colOff) (i32.shl (local.get $j) (i32.const 2)))
                  (i32.add (local.get $p0) (local.get $j)))
                (local.set $j (i32.add (local.get $j) (i32.const 1)))
                (br $for_j)))
            (local.set $i (local.get $p0))
            (block $end_i
              (loop $for_i
                (br_if $end_i (i32.ge_s (local.get $i) (local.get $nrows)))
                (i32.store
                  (i32.add (local.get $rowBase) (i32.shl (i32.sub (local.get $i) (local.get $p0)) (i32.const 2)))
                  (i32.add (local.get $xs) (i32.mul (local.get $i) (local.get $ns))))
                (local.set $i (i32.add (local.get $i) (i32.const 1)))
                (br $for_i)))
            (call $product
              (i32.add
                (local.get $Lx)
                (i32.shl (i32.add (local.get $xs) (i32.mul (local.get $p0) (local.get $ns))) (i32.const 3)))
              (i32.shl (local.get $ns) (i32.const 3))
              (local.get $W)
              (local.get $p0)
              (local.get $nb)
              (i32.sub (local.get $nrows) (local.get $p0))
              (local.get $Lx)
              (local.get $rowBase)
              (local.get $colOff)
              (i32.const 1))))
        (local.set $col (local.get $p0))
        ;; the panel's diagonal block, column by column; row col of Wp (W's first LDLT_PANEL² entries, rows of
        ;; LDLT_PANEL) keeps L_col,m·D_m for the rows below: Wp(col, m − p0) = L_col,m·D_m,
        ;; D_col = a_col,col − Σ L_col,m·Wp(col, m − p0)
        (block $end_col
          (loop $for_col
            (br_if $end_col (i32.ge_s (local.get $col) (local.get $p1)))
            (local.set $rk (i32.add (local.get $xs) (i32.mul (local.get $col) (local.get $ns))))
            (local.set $wrow
              (i32.sub (i32.mul (i32.sub (local.get $col) (local.get $p0)) (i32.const 24)) (local.get $p0)))
            (local.set $dk
              (f64.load (i32.add (local.get $Lx) (i32.shl (i32.add (local.get $rk) (local.get $col)) (i32.const 3)))))
            (local.set $m (local.get $p0))
            (block $end_m
              (loop $for_m
                (br_if $end_m (i32.ge_s (local.get $m) (local.get $col)))
                (local.set $l
                  (f64.load
                    (i32.add (local.get $Lx) (i32.shl (i32.add (local.get $rk) (local.get $m)) (i32.const 3)))))
                (local.set $w
                  (f64.mul
                    (local.get $l)
                    (f64.load
                      (i32.add (local.get $D) (i32.shl (i32.add (local.get $k1) (local.get $m)) (i32.const 3))))))
                (f64.store
                  (i32.add (local.get $W) (i32.shl (i32.add (local.get $wrow) (local.get $m)) (i32.const 3)))
                  (local.get $w))
                (local.set $dk (f64.sub (local.get $dk) (f64.mul (local.get $l) (local.get $w))))
                (local.set $m (i32.add (local.get $m) (i32.const 1)))
                (br $for_m)))
            ;; a vanishing or non-finite pivot: !(|dk| > tol) || dk − dk ≠ 0
            (if $I19 (i32.or (i32.eqz (f64.gt (f64.abs (local.get $dk)) (local.get $tol2))) (i32.eqz (f64.eq (f64.sub (local.get $dk) (local.get $dk)) (f64.const 0))))
              (then
                (i32.store
                  (i32.add (local.get $status) (i32.shl (i32.const 0) (i32.const 2)))
                  (i32.add (local.get $k1) (local.get $col)))
                (f64.store (i32.add (local.get $pivot) (i32.shl (i32.const 0) (i32.const 3))) (local.get $dk))
                (return)))
            (f64.store
              (i32.add (local.get $D) (i32.shl (i32.add (local.get $k1) (local.get $col)) (i32.const 3)))
              (local.get $dk))
            (f64.store
              (i32.add (local.get $Lx) (i32.shl (i32.add (local.get $rk) (local.get $col)) (i32.const 3)))
              (local.get $dk))
            (local.set $i (i32.add (local.get $col) (i32.const 1)))
            (block $B20
              (loop $L21
                (br_if $B20 (i32.ge_s (i32.add (local.get $i) (i32.const 1)) (local.get $p1)))
                (local.set $r0 (i32.add (local.get $xs) (i32.mul (local.get $i) (local.get $ns))))
                (local.set $r1 (i32.add (local.get $r0) (local.get $ns)))
                (local.set $s0
                  (f64.load
                    (i32.add (local.get $Lx) (i32.shl (i32.add (local.get $r0) (local.get $col)) (i32.const 3)))))
                (local.set $s1
                  (f64.load
                    (i32.add (local.get $Lx) (i32.shl (i32.add (local.get $r1) (local.get $col)) (i32.const 3)))))
                (local.set $m (local.get $p0))
                (block $end_m_2
                  (loop $for_m_2
                    (br_if $end_m_2 (i32.ge_s (local.get $m) (local.get $col)))
                    (local.set $w
                      (f64.load
                        (i32.add (local.get $W) (i32.shl (i32.add (local.get $wrow) (local.get $m)) (i32.const 3)))))
                    (local.set $s0
                      (f64.sub
                        (local.get $s0)
                        (f64.mul
                          (f64.load
                            (i32.add (local.get $Lx) (i32.shl (i32.add (local.get $r0) (local.get $m)) (i32.const 3))))
                          (local.get $w))))
                    (local.set $s1
                      (f64.sub
                        (local.get $s1)
                        (f64.mul
                          (f64.load
                            (i32.add (local.get $Lx) (i32.shl (i32.add (local.get $r1) (local.get $m)) (i32.const 3))))
                          (local.get $w))))
                    (local.set $m (i32.add (local.get $m) (i32.const 1)))
                    (br $for_m_2)))
                (f64.store
                  (i32.add (local.get $Lx) (i32.shl (i32.add (local.get $r0) (local.get $col)) (i32.const 3)))
                  (f64.div (local.get $s0) (local.get $dk)))
                (f64.store
                  (i32.add (local.get $Lx) (i32.shl (i32.add (local.get $r1) (local.get $col)) (i32.const 3)))
                  (f64.div (local.get $s1) (local.get $dk)))
                (local.set $i (i32.add (local.get $i) (i32.const 2)))
                (br $L21)))
            (if $I24 (i32.lt_s (local.get $i) (local.get $p1))
              (then
                (local.set $r0 (i32.add (local.get $xs) (i32.mul (local.get $i) (local.get $ns))))
                (local.set $s0
                  (f64.load
                    (i32.add (local.get $Lx) (i32.shl (i32.add (local.get $r0) (local.get $col)) (i32.const 3)))))
                (local.set $m (local.get $p0))
                (block $end_m_3
                  (loop $for_m_3
                    (br_if $end_m_3 (i32.ge_s (local.get $m) (local.get $col)))
                    (local.set $s0
                      (f64.sub
                        (local.get $s0)
                        (f64.mul
                          (f64.load
                            (i32.add (local.get $Lx) (i32.shl (i32.add (local.get $r0) (local.get $m)) (i32.const 3))))
                          (f64.load
                            (i32.add
                              (local.get $W)
                              (i32.shl (i32.add (local.get $wrow) (local.get $m)) (i32.const 3)))))))
                    (local.set $m (i32.add (local.get $m) (i32.const 1)))
                    (br $for_m_3)))
                (f64.store
                  (i32.add (local.get $Lx) (i32.shl (i32.add (local.get $r0) (local.get $col)) (i32.const 3)))
                  (f64.div (local.get $s0) (local.get $dk)))))
            (local.set $col (i32.add (local.get $col) (i32.const 1)))
            (br $for_col)))
        (local.set $ldB (i32.shl (local.get $ns) (i32.const 3)))
        (local.set $tB (i32.add (local.get $W) (i32.const 4608)))
        (local.set $i (local.get $p1))
        (block $B27
          (loop $L28
            (br_if $B27 (i32.ge_s (i32.add (local.get $i) (i32.const 7)) (local.get $nrows)))
            (local.set $rA
              (i32.add
                (local.get $Lx)
                (i32.shl (i32.add (local.get $xs) (i32.mul (local.get $i) (local.get $ns))) (i32.const 3))))
            (local.set $col (local.get $p0))
            ;; the rows below the panel (p1 ≤ i < nrows), each independent: for col in the panel,
            ;; L_i,col = (a_i,col − Σ_m L_i,m·Wp(col, m − p0)) / D_col, the same operations in the same order as
            ;; column by column; in f64x2, two rows per vector (lane 0, lane 1), eight then four rows at a
            ;; time, then single rows (both lanes the same row). T (after Wp) keeps the tile's new L_i,m by m.
            (block $end_col_2
              (loop $for_col_2
                (br_if $end_col_2 (i32.ge_s (local.get $col) (local.get $p1)))
                (local.set $cB (i32.shl (local.get $col) (i32.const 3)))
                (local.set $v0 (v128.load64_zero (i32.add (local.get $rA) (local.get $cB))))
                (local.set $v0
                  (v128.load64_lane 1
                    (i32.add (i32.add (local.get $rA) (i32.mul (local.get $ldB) (i32.const 1))) (local.get $cB))
                    (local.get $v0)))
                (local.set $v1
                  (v128.load64_zero
                    (i32.add (i32.add (local.get $rA) (i32.mul (local.get $ldB) (i32.const 2))) (local.get $cB))))
                (local.set $v1
                  (v128.load64_lane 1
                    (i32.add (i32.add (local.get $rA) (i32.mul (local.get $ldB) (i32.const 3))) (local.get $cB))
                    (local.get $v1)))
                (local.set $v2
                  (v128.load64_zero
                    (i32.add (i32.add (local.get $rA) (i32.mul (local.get $ldB) (i32.const 4))) (local.get $cB))))
                (local.set $v2
                  (v128.load64_lane 1
                    (i32.add (i32.add (local.get $rA) (i32.mul (local.get $ldB) (i32.const 5))) (local.get $cB))
                    (local.get $v2)))
                (local.set $v3
                  (v128.load64_zero
                    (i32.add (i32.add (local.get $rA) (i32.mul (local.get $ldB) (i32.const 6))) (local.get $cB))))
                (local.set $v3
                  (v128.load64_lane 1
                    (i32.add (i32.add (local.get $rA) (i32.mul (local.get $ldB) (i32.const 7))) (local.get $cB))
                    (local.get $v3)))
                (local.set $wB
                  (i32.add (local.get $W) (i32.mul (i32.sub (local.get $col) (local.get $p0)) (i32.const 192))))
                (local.set $mEnd (i32.shl (i32.sub (local.get $col) (local.get $p0)) (i32.const 3)))
                (local.set $mB (i32.const 0))
                (block $B31
                  (loop $L32
                    (br_if $B31 (i32.ge_s (local.get $mB) (local.get $mEnd)))
                    (local.set $wv (v128.load64_splat (i32.add (local.get $wB) (local.get $mB))))
                    (local.set $tm (i32.add (local.get $tB) (i32.shl (local.get $mB) (i32.const 3))))
                    (local.set $v0
                      (f64x2.sub (local.get $v0) (f64x2.mul (v128.load (local.get $tm)) (local.get $wv))))
                    (local.set $v1
                      (f64x2.sub (local.get $v1) (f64x2.mul (v128.load offset=16 (local.get $tm)) (local.get $wv))))
                    (local.set $v2
                      (f64x2.sub (local.get $v2) (f64x2.mul (v128.load offset=32 (local.get $tm)) (local.get $wv))))
                    (local.set $v3
                      (f64x2.sub (local.get $v3) (f64x2.mul (v128.load offset=48 (local.get $tm)) (local.get $wv))))
                    (local.set $mB (i32.add (local.get $mB) (i32.const 8)))
                    (br $L32)))
                (local.set $dv
                  (v128.load64_splat
                    (i32.add (local.get $D) (i32.shl (i32.add (local.get $k1) (local.get $col)) (i32.const 3)))))
                (local.set $tm (i32.add (local.get $tB) (i32.shl (local.get $mEnd) (i32.const 3))))
                (local.set $v0 (f64x2.div (local.get $v0) (local.get $dv)))
                (v128.store (local.get $tm) (local.get $v0))
                (local.set $v1 (f64x2.div (local.get $v1) (local.get $dv)))
                (v128.store offset=16 (local.get $tm) (local.get $v1))
                (local.set $v2 (f64x2.div (local.get $v2) (local.get $dv)))
                (v128.store offset=32 (local.get $tm) (local.get $v2))
                (local.set $v3 (f64x2.div (local.get $v3) (local.get $dv)))
                (v128.store offset=48 (local.get $tm) (local.get $v3))
                (v128.store64_lane 0 (i32.add (local.get $rA) (local.get $cB)) (local.get $v0))
                (v128.store64_lane 1
                  (i32.add (i32.add (local.get $rA) (i32.mul (local.get $ldB) (i32.const 1))) (local.get $cB))
                  (local.get $v0))
                (v128.store64_lane 0
                  (i32.add (i32.add (local.get $rA) (i32.mul (local.get $ldB) (i32.const 2))) (local.get $cB))
                  (local.get $v1))
                (v128.store64_lane 1
                  (i32.add (i32.add (local.get $rA) (i32.mul (local.get $ldB) (i32.const 3))) (local.get $cB))
                  (local.get $v1))
                (v128.store64_lane 0
                  (i32.add (i32.add (local.get $rA) (i32.mul (local.get $ldB) (i32.const 4))) (local.get $cB))
                  (local.get $v2))
                (v128.store64_lane 1
                  (i32.add (i32.add (local.get $rA) (i32.mul (local.get $ldB) (i32.const 5))) (local.get $cB))
                  (local.get $v2))
                (v128.store64_lane 0
                  (i32.add (i32.add (local.get $rA) (i32.mul (local.get $ldB) (i32.const 6))) (local.get $cB))
                  (local.get $v3))
                (v128.store64_lane 1
                  (i32.add (i32.add (local.get $rA) (i32.mul (local.get $ldB) (i32.const 7))) (local.get $cB))
                  (local.get $v3))
                (local.set $col (i32.add (local.get $col) (i32.const 1)))
                (br $for_col_2)))
            (local.set $i (i32.add (local.get $i) (i32.const 8)))
            (br $L28)))
        (block $B33
          (loop $L34
            (br_if $B33 (i32.ge_s (i32.add (local.get $i) (i32.const 3)) (local.get $nrows)))
            (local.set $rA
              (i32.add
                (local.get $Lx)
                (i32.shl (i32.add (local.get $xs) (i32.mul (local.get $i) (local.get $ns))) (i32.const 3))))
            (local.set $col (local.get $p0))
            (block $end_col_3
              (loop $for_col_3
                (br_if $end_col_3 (i32.ge_s (local.get $col) (local.get $p1)))
                (local.set $cB (i32.shl (local.get $col) (i32.const 3)))
                (local.set $v0 (v128.load64_zero (i32.add (local.get $rA) (local.get $cB))))
                (local.set $v0
                  (v128.load64_lane 1
                    (i32.add (i32.add (local.get $rA) (i32.mul (local.get $ldB) (i32.const 1))) (local.get $cB))
                    (local.get $v0)))
                (local.set $v1
                  (v128.load64_zero
                    (i32.add (i32.add (local.get $rA) (i32.mul (local.get $ldB) (i32.const 2))) (local.get $cB))))
                (local.set $v1
                  (v128.load64_lane 1
                    (i32.add (i32.add (local.get $rA) (i32.mul (local.get $ldB) (i32.const 3))) (local.get $cB))
                    (local.get $v1)))
                (local.set $wB
                  (i32.add (local.get $W) (i32.mul (i32.sub (local.get $col) (local.get $p0)) (i32.const 192))))
                (local.set $mEnd (i32.shl (i32.sub (local.get $col) (local.get $p0)) (i32.const 3)))
                (local.set $mB (i32.const 0))
                (block $B37
                  (loop $L38
                    (br_if $B37 (i32.ge_s (local.get $mB) (local.get $mEnd)))
                    (local.set $wv (v128.load64_splat (i32.add (local.get $wB) (local.get $mB))))
                    (local.set $tm (i32.add (local.get $tB) (i32.shl (local.get $mB) (i32.const 2))))
                    (local.set $v0
                      (f64x2.sub (local.get $v0) (f64x2.mul (v128.load (local.get $tm)) (local.get $wv))))
                    (local.set $v1
                      (f64x2.sub (local.get $v1) (f64x2.mul (v128.load offset=16 (local.get $tm)) (local.get $wv))))
                    (local.set $mB (i32.add (local.get $mB) (i32.const 8)))
                    (br $L38)))
                (local.set $dv
                  (v128.load64_splat
                    (i32.add (local.get $D) (i32.shl (i32.add (local.get $k1) (local.get $col)) (i32.const 3)))))
                (local.set $tm (i32.add (local.get $tB) (i32.shl (local.get $mEnd) (i32.const 2))))
                (local.set $v0 (f64x2.div (local.get $v0) (local.get $dv)))
                (v128.store (local.get $tm) (local.get $v0))
                (local.set $v1 (f64x2.div (local.get $v1) (local.get $dv)))
                (v128.store offset=16 (local.get $tm) (local.get $v1))
                (v128.store64_lane 0 (i32.add (local.get $rA) (local.get $cB)) (local.get $v0))
                (v128.store64_lane 1
                  (i32.add (i32.add (local.get $rA) (i32.mul (local.get $ldB) (i32.const 1))) (local.get $cB))
                  (local.get $v0))
                (v128.store64_lane 0
                  (i32.add (i32.add (local.get $rA) (i32.mul (local.get $ldB) (i32.const 2))) (local.get $cB))
                  (local.get $v1))
                (v128.store64_lane 1
                  (i32.add (i32.add (local.get $rA) (i32.mul (local.get $ldB) (i32.const 3))) (local.get $cB))
                  (local.get $v1))
                (local.set $col (i32.add (local.get $col) (i32.const 1)))
                (br $for_col_3)))
            (local.set $i (i32.add (local.get $i) (i32.const 4)))
            (br $L34)))
        (block $B39
          (loop $L40
            (br_if $B39 (i32.ge_s (local.get $i) (local.get $nrows)))
            (local.set $rA
              (i32.add
                (local.get $Lx)
                (i32.shl (i32.add (local.get $xs) (i32.mul (local.get $i) (local.get $ns))) (i32.const 3))))
            (local.set $col (local.get $p0))
            (block $end_col_4
              (loop $for_col_4
                (br_if $end_col_4 (i32.ge_s (local.get $col) (local.get $p1)))
                (local.set $cB (i32.shl (local.get $col) (i32.const 3)))
                (local.set $v0 (v128.load64_splat (i32.add (local.get $rA) (local.get $cB))))
                (local.set $wB
                  (i32.add (local.get $W) (i32.mul (i32.sub (local.get $col) (local.get $p0)) (i32.const 192))))
                (local.set $mEnd (i32.shl (i32.sub (local.get $col) (local.get $p0)) (i32.const 3)))
                (local.set $mB (i32.const 0))
                (block $B43
                  (loop $L44
                    (br_if $B43 (i32.ge_s (local.get $mB) (local.get $mEnd)))
                    (local.set $wv (v128.load64_splat (i32.add (local.get $wB) (local.get $mB))))
                    (local.set $tm (i32.add (local.get $tB) (i32.shl (local.get $mB) (i32.const 1))))
                    (local.set $v0
                      (f64x2.sub (local.get $v0) (f64x2.mul (v128.load (local.get $tm)) (local.get $wv))))
                    (local.set $mB (i32.add (local.get $mB) (i32.const 8)))
                    (br $L44)))
                (local.set $dv
                  (v128.load64_splat
                    (i32.add (local.get $D) (i32.shl (i32.add (local.get $k1) (local.get $col)) (i32.const 3)))))
                (local.set $tm (i32.add (local.get $tB) (i32.shl (local.get $mEnd) (i32.const 1))))
                (local.set $v0 (f64x2.div (local.get $v0) (local.get $dv)))
                (v128.store (local.get $tm) (local.get $v0))
                (v128.store64_lane 0 (i32.add (local.get $rA) (local.get $cB)) (local.get $v0))
                (local.set $col (i32.add (local.get $col) (i32.const 1)))
                (br $for_col_4)))
            (local.set $i (i32.add (local.get $i) (i32.const 1)))
            (br $L40)))
        (local.set $p0 (i32.add (local.get $p0) (i32.const 24)))
        (br $L1))))

  ;; ldltFactor(): supernodal-ldlt.ts `factorize` (left-looking by supernode)
  (func $ldltFactor (export "ldltFactor")
    (call $ldltFactorRange (i32.const 0) (i32.const 0) (i32.load (i32.const 0)) (i32.const 1)))

  ;; ldltFactorRange(h, s0, s1, clear): the supernodes s0 … s1−1 of ldltFactor with the header at
  ;; byte h (a thread's own scratch: relPos, rowBase, colOff, W, head, status, pivot), the lists of
  ;; waiting supernodes (head) emptied first when clear ≠ 0. A range that is a union of whole subtrees
  ;; of the supernodal elimination tree only reads and writes its own blocks (and appends to the
  ;; lists of the supernodes above it), so two such ranges may run at once on two threads
  ;; (supernodal-ldlt.ts, parallel factorization).
  (func $ldltFactorRange (export "ldltFactorRange") (param $h i32) (param $s0 i32) (param $s1 i32) (param $clear i32)
    (local $nsuper i32) (local $superStart i32) (local $superRowPtr i32) (local $superRows i32)
    (local $superValPtr i32) (local $superOf i32) (local $aPtr i32) (local $aSrc i32) (local $aDst i32)
    (local $relPos i32) (local $head i32) (local $next i32) (local $lpos i32) (local $Lx i32) (local $Av i32)
    (local $status i32) (local $s i32) (local $k1 i32) (local $k2 i32) (local $ns i32) (local $r0 i32)
    (local $nrows i32) (local $xs i32) (local $q i32) (local $p i32) (local $d i32) (local $dNext i32)
    (local $rdEnd i32) (local $p1 i32) (local $p2 i32) (local $t i32)
    ;; an empty range (a pool's other threads) touches nothing, not even its status
    (if (i32.ge_s (local.get $s0) (local.get $s1))
      (then
        (return)))
    (global.set $hdr (local.get $h))
    (local.set $nsuper (i32.load (global.get $hdr)))
    (local.set $superStart (i32.load offset=8 (global.get $hdr)))
    (local.set $superRowPtr (i32.load offset=12 (global.get $hdr)))
    (local.set $superRows (i32.load offset=16 (global.get $hdr)))
    (local.set $superValPtr (i32.load offset=20 (global.get $hdr)))
    (local.set $superOf (i32.load offset=24 (global.get $hdr)))
    (local.set $aPtr (i32.load offset=28 (global.get $hdr)))
    (local.set $aSrc (i32.load offset=32 (global.get $hdr)))
    (local.set $aDst (i32.load offset=36 (global.get $hdr)))
    (local.set $relPos (i32.load offset=40 (global.get $hdr)))
    (local.set $head (i32.load offset=52 (global.get $hdr)))
    (local.set $next (i32.load offset=56 (global.get $hdr)))
    (local.set $lpos (i32.load offset=60 (global.get $hdr)))
    (local.set $Lx (i32.load offset=64 (global.get $hdr)))
    (local.set $Av (i32.load offset=76 (global.get $hdr)))
    (local.set $status (i32.load offset=92 (global.get $hdr)))
    (i32.store (i32.add (local.get $status) (i32.shl (i32.const 0) (i32.const 2))) (i32.const -1))
    (local.set $s (i32.const 0))
    ;; status = −1; head.fill(−1) when clear
    (block $end_s
      (loop $for_s
        (br_if $end_s (i32.or (i32.eqz (local.get $clear)) (i32.ge_s (local.get $s) (local.get $nsuper))))
        (i32.store (i32.add (local.get $head) (i32.shl (local.get $s) (i32.const 2))) (i32.const -1))
        (local.set $s (i32.add (local.get $s) (i32.const 1)))
        (br $for_s)))
    (local.set $s (local.get $s0))
    (block $end_s_2
      (loop $for_s_2
        (br_if $end_s_2 (i32.ge_s (local.get $s) (local.get $s1)))
        (local.set $k1 (i32.load (i32.add (local.get $superStart) (i32.shl (local.get $s) (i32.const 2)))))
        (local.set $k2
          (i32.load (i32.add (local.get $superStart) (i32.shl (i32.add (local.get $s) (i32.const 1)) (i32.const 2)))))
        (local.set $ns (i32.sub (local.get $k2) (local.get $k1)))
        (local.set $r0 (i32.load (i32.add (local.get $superRowPtr) (i32.shl (local.get $s) (i32.const 2)))))
        (local.set $nrows
          (i32.sub
            (i32.load
              (i32.add (local.get $superRowPtr) (i32.shl (i32.add (local.get $s) (i32.const 1)) (i32.const 2))))
            (local.get $r0)))
        (local.set $xs (i32.load (i32.add (local.get $superValPtr) (i32.shl (local.get $s) (i32.const 2)))))
        ;; the block of s ← 0 (+0.0 is all zero bytes), then its columns of P A Pᵀ
        (memory.fill
          (i32.add (local.get $Lx) (i32.shl (local.get $xs) (i32.const 3)))
          (i32.const 0)
          (i32.shl (i32.mul (local.get $nrows) (local.get $ns)) (i32.const 3)))
        (local.set $q (i32.load (i32.add (local.get $aPtr) (i32.shl (local.get $s) (i32.const 2)))))
        (block $end_q
          (loop $for_q
            (br_if $end_q
              (i32.ge_s
                (local.get $q)
                (i32.load (i32.add (local.get $aPtr) (i32.shl (i32.add (local.get $s) (i32.const 1)) (i32.const 2))))))
            (local.set $p (i32.load (i32.add (local.get $aDst) (i32.shl (local.get $q) (i32.const 2)))))
            (f64.store
              (i32.add (local.get $Lx) (i32.shl (local.get $p) (i32.const 3)))
              (f64.add
                (f64.load (i32.add (local.get $Lx) (i32.shl (local.get $p) (i32.const 3))))
                (f64.load
                  (i32.add
                    (local.get $Av)
                    (i32.shl
                      (i32.load (i32.add (local.get $aSrc) (i32.shl (local.get $q) (i32.const 2))))
                      (i32.const 3))))))
            (local.set $q (i32.add (local.get $q) (i32.const 1)))
            (br $for_q)))
        (local.set $p (i32.const 0))
        ;; updates from the supernodes waiting for s
        (block $end_p
          (loop $for_p
            (br_if $end_p (i32.ge_s (local.get $p) (local.get $nrows)))
            (i32.store
              (i32.add
                (local.get $relPos)
                (i32.shl
                  (i32.load
                    (i32.add (local.get $superRows) (i32.shl (i32.add (local.get $r0) (local.get $p)) (i32.const 2))))
                  (i32.const 2)))
              (local.get $p))
            (local.set $p (i32.add (local.get $p) (i32.const 1)))
            (br $for_p)))
        (local.set $d (i32.load (i32.add (local.get $head) (i32.shl (local.get $s) (i32.const 2)))))
        (block $end_while
          (loop $for_while
            (br_if $end_while (i32.eqz (i32.ne (local.get $d) (i32.const -1))))
            (local.set $dNext (i32.load (i32.add (local.get $next) (i32.shl (local.get $d) (i32.const 2)))))
            (local.set $rdEnd
              (i32.load
                (i32.add (local.get $superRowPtr) (i32.shl (i32.add (local.get $d) (i32.const 1)) (i32.const 2)))))
            (local.set $p1
              (i32.add
                (i32.load (i32.add (local.get $superRowPtr) (i32.shl (local.get $d) (i32.const 2))))
                (i32.load (i32.add (local.get $lpos) (i32.shl (local.get $d) (i32.const 2))))))
            (local.set $p2 (local.get $p1))
            (block $end_while_2
              (loop $for_while_2
                (if $I12 (i32.lt_s (local.get $p2) (local.get $rdEnd))
                  (then
                    (local.set $t
                      (i32.lt_s
                        (i32.load (i32.add (local.get $superRows) (i32.shl (local.get $p2) (i32.const 2))))
                        (local.get $k2))))
                  (else
                    (local.set $t (i32.const 0))))
                (br_if $end_while_2 (i32.eqz (local.get $t)))
                (local.set $p2 (i32.add (local.get $p2) (i32.const 1)))
                (br $for_while_2)))
            (call $ldltUpdate (local.get $d) (local.get $p1) (local.get $p2) (local.get $s))
            (i32.store
              (i32.add (local.get $lpos) (i32.shl (local.get $d) (i32.const 2)))
              (i32.sub
                (local.get $p2)
                (i32.load (i32.add (local.get $superRowPtr) (i32.shl (local.get $d) (i32.const 2))))))
            (if $I13 (i32.lt_s (local.get $p2) (local.get $rdEnd))
              (then
                (local.set $t
                  (i32.load
                    (i32.add
                      (local.get $superOf)
                      (i32.shl
                        (i32.load (i32.add (local.get $superRows) (i32.shl (local.get $p2) (i32.const 2))))
                        (i32.const 2)))))
                (i32.store
                  (i32.add (local.get $next) (i32.shl (local.get $d) (i32.const 2)))
                  (i32.load (i32.add (local.get $head) (i32.shl (local.get $t) (i32.const 2)))))
                (i32.store (i32.add (local.get $head) (i32.shl (local.get $t) (i32.const 2))) (local.get $d))))
            (local.set $d (local.get $dNext))
            (br $for_while)))
        (call $ldltFactorBlock (local.get $s))
        (if $I14 (i32.ne (i32.load (i32.add (local.get $status) (i32.shl (i32.const 0) (i32.const 2)))) (i32.const -1))
          (then
            (return)))
        (if $I15 (i32.gt_s (local.get $nrows) (local.get $ns))
          (then
            (i32.store (i32.add (local.get $lpos) (i32.shl (local.get $s) (i32.const 2))) (local.get $ns))
            (local.set $t
              (i32.load
                (i32.add
                  (local.get $superOf)
                  (i32.shl
                    (i32.load
                      (i32.add
                        (local.get $superRows)
                        (i32.shl (i32.add (local.get $r0) (local.get $ns)) (i32.const 2))))
                    (i32.const 2)))))
            (i32.store
              (i32.add (local.get $next) (i32.shl (local.get $s) (i32.const 2)))
              (i32.load (i32.add (local.get $head) (i32.shl (local.get $t) (i32.const 2)))))
            (i32.store (i32.add (local.get $head) (i32.shl (local.get $t) (i32.const 2))) (local.get $s))))
        (local.set $s (i32.add (local.get $s) (i32.const 1)))
        (br $for_s_2))))

  ;; ldltSolve(): supernodal-ldlt.ts `solve`, on the vector at `vec` (read, then overwritten)
  (func $ldltSolve (export "ldltSolve")
    (local $n i32) (local $nsuper i32) (local $perm i32) (local $superStart i32) (local $superRowPtr i32)
    (local $superRows i32) (local $superValPtr i32) (local $Lx i32) (local $D i32) (local $y i32) (local $vec i32)
    (local $kk i32) (local $s i32) (local $k1 i32) (local $ns i32) (local $r0 i32) (local $nrows i32) (local $xs i32)
    (local $rk i32) (local $m i32) (local $i i32) (local $ri i32) (local $t f64) (local $ym f64) (local $rowB i32)
    (local $mB i32) (local $t4_0 f64) (local $t4_1 f64) (local $t4_2 f64) (local $t4_3 f64) (local $s2 i32)
    (local $k1_2 i32) (local $ns2 i32) (local $r0_2 i32) (local $nrows2 i32) (local $xs2 i32) (local $i2 i32)
    (local $kk2 i32) (local $yB i32) (local $lB i32) (local $mB2 i32) (local $mEnd i32) (local $mPairs i32)
    (local $yi f64) (local $yv v128)
    (local.set $n (i32.load offset=4 (i32.const 0)))
    (local.set $nsuper (i32.load (i32.const 0)))
    (local.set $perm (i32.load offset=80 (i32.const 0)))
    (local.set $superStart (i32.load offset=8 (i32.const 0)))
    (local.set $superRowPtr (i32.load offset=12 (i32.const 0)))
    (local.set $superRows (i32.load offset=16 (i32.const 0)))
    (local.set $superValPtr (i32.load offset=20 (i32.const 0)))
    (local.set $Lx (i32.load offset=64 (i32.const 0)))
    (local.set $D (i32.load offset=68 (i32.const 0)))
    (local.set $y (i32.load offset=84 (i32.const 0)))
    (local.set $vec (i32.load offset=88 (i32.const 0)))
    (local.set $kk (i32.const 0))
    ;; y[k] = b[perm[k]]
    (block $end_kk
      (loop $for_kk
        (br_if $end_kk (i32.ge_s (local.get $kk) (local.get $n)))
        (f64.store
          (i32.add (local.get $y) (i32.shl (local.get $kk) (i32.const 3)))
          (f64.load
            (i32.add
              (local.get $vec)
              (i32.shl (i32.load (i32.add (local.get $perm) (i32.shl (local.get $kk) (i32.const 2)))) (i32.const 3)))))
        (local.set $kk (i32.add (local.get $kk) (i32.const 1)))
        (br $for_kk)))
    (local.set $s (i32.const 0))
    ;; L z = P b: per supernode, its diagonal block, then the rows below: t_i = Σ_m L_im·y_m (m in order),
    ;; y[superRows[r0+i]] −= t_i; four rows at a time (four independent sums), then one at a time
    (block $end_s
      (loop $for_s
        (br_if $end_s (i32.ge_s (local.get $s) (local.get $nsuper)))
        (local.set $k1 (i32.load (i32.add (local.get $superStart) (i32.shl (local.get $s) (i32.const 2)))))
        (local.set $ns
          (i32.sub
            (i32.load
              (i32.add (local.get $superStart) (i32.shl (i32.add (local.get $s) (i32.const 1)) (i32.const 2))))
            (local.get $k1)))
        (local.set $r0 (i32.load (i32.add (local.get $superRowPtr) (i32.shl (local.get $s) (i32.const 2)))))
        (local.set $nrows
          (i32.sub
            (i32.load
              (i32.add (local.get $superRowPtr) (i32.shl (i32.add (local.get $s) (i32.const 1)) (i32.const 2))))
            (local.get $r0)))
        (local.set $xs (i32.load (i32.add (local.get $superValPtr) (i32.shl (local.get $s) (i32.const 2)))))
        (local.set $kk (i32.const 1))
        (block $end_kk_2
          (loop $for_kk_2
            (br_if $end_kk_2 (i32.ge_s (local.get $kk) (local.get $ns)))
            (local.set $rk (i32.add (local.get $xs) (i32.mul (local.get $kk) (local.get $ns))))
            (local.set $t
              (f64.load (i32.add (local.get $y) (i32.shl (i32.add (local.get $k1) (local.get $kk)) (i32.const 3)))))
            (local.set $m (i32.const 0))
            (block $end_m
              (loop $for_m
                (br_if $end_m (i32.ge_s (local.get $m) (local.get $kk)))
                (local.set $t
                  (f64.sub
                    (local.get $t)
                    (f64.mul
                      (f64.load
                        (i32.add (local.get $Lx) (i32.shl (i32.add (local.get $rk) (local.get $m)) (i32.const 3))))
                      (f64.load
                        (i32.add (local.get $y) (i32.shl (i32.add (local.get $k1) (local.get $m)) (i32.const 3)))))))
                (local.set $m (i32.add (local.get $m) (i32.const 1)))
                (br $for_m)))
            (f64.store
              (i32.add (local.get $y) (i32.shl (i32.add (local.get $k1) (local.get $kk)) (i32.const 3)))
              (local.get $t))
            (local.set $kk (i32.add (local.get $kk) (i32.const 1)))
            (br $for_kk_2)))
        (local.set $i (local.get $ns))
        (block $B8
          (loop $L9
            (br_if $B8 (i32.ge_s (i32.add (local.get $i) (i32.const 3)) (local.get $nrows)))
            (local.set $ri
              (i32.add
                (local.get $Lx)
                (i32.shl (i32.add (local.get $xs) (i32.mul (local.get $i) (local.get $ns))) (i32.const 3))))
            (local.set $rowB (i32.shl (local.get $ns) (i32.const 3)))
            (local.set $t4_0 (f64.const 0))
            (local.set $t4_1 (f64.const 0))
            (local.set $t4_2 (f64.const 0))
            (local.set $t4_3 (f64.const 0))
            (local.set $m (i32.const 0))
            (block $end_m_2
              (loop $for_m_2
                (br_if $end_m_2 (i32.ge_s (local.get $m) (local.get $ns)))
                (local.set $ym
                  (f64.load (i32.add (local.get $y) (i32.shl (i32.add (local.get $k1) (local.get $m)) (i32.const 3)))))
                (local.set $mB (i32.shl (local.get $m) (i32.const 3)))
                (local.set $t4_0
                  (f64.add
                    (local.get $t4_0)
                    (f64.mul (f64.load (i32.add (local.get $ri) (local.get $mB))) (local.get $ym))))
                (local.set $t4_1
                  (f64.add
                    (local.get $t4_1)
                    (f64.mul
                      (f64.load
                        (i32.add (i32.add (local.get $ri) (i32.mul (local.get $rowB) (i32.const 1))) (local.get $mB)))
                      (local.get $ym))))
                (local.set $t4_2
                  (f64.add
                    (local.get $t4_2)
                    (f64.mul
                      (f64.load
                        (i32.add (i32.add (local.get $ri) (i32.mul (local.get $rowB) (i32.const 2))) (local.get $mB)))
                      (local.get $ym))))
                (local.set $t4_3
                  (f64.add
                    (local.get $t4_3)
                    (f64.mul
                      (f64.load
                        (i32.add (i32.add (local.get $ri) (i32.mul (local.get $rowB) (i32.const 3))) (local.get $mB)))
                      (local.get $ym))))
                (local.set $m (i32.add (local.get $m) (i32.const 1)))
                (br $for_m_2)))
            (local.set $rk
              (i32.load
                (i32.add
                  (local.get $superRows)
                  (i32.shl (i32.add (i32.add (local.get $r0) (local.get $i)) (i32.const 0)) (i32.const 2)))))
            (f64.store
              (i32.add (local.get $y) (i32.shl (local.get $rk) (i32.const 3)))
              (f64.sub (f64.load (i32.add (local.get $y) (i32.shl (local.get $rk) (i32.const 3)))) (local.get $t4_0)))
            (local.set $rk
              (i32.load
                (i32.add
                  (local.get $superRows)
                  (i32.shl (i32.add (i32.add (local.get $r0) (local.get $i)) (i32.const 1)) (i32.const 2)))))
            (f64.store
              (i32.add (local.get $y) (i32.shl (local.get $rk) (i32.const 3)))
              (f64.sub (f64.load (i32.add (local.get $y) (i32.shl (local.get $rk) (i32.const 3)))) (local.get $t4_1)))
            (local.set $rk
              (i32.load
                (i32.add
                  (local.get $superRows)
                  (i32.shl (i32.add (i32.add (local.get $r0) (local.get $i)) (i32.const 2)) (i32.const 2)))))
            (f64.store
              (i32.add (local.get $y) (i32.shl (local.get $rk) (i32.const 3)))
              (f64.sub (f64.load (i32.add (local.get $y) (i32.shl (local.get $rk) (i32.const 3)))) (local.get $t4_2)))
            (local.set $rk
              (i32.load
                (i32.add
                  (local.get $superRows)
                  (i32.shl (i32.add (i32.add (local.get $r0) (local.get $i)) (i32.const 3)) (i32.const 2)))))
            (f64.store
              (i32.add (local.get $y) (i32.shl (local.get $rk) (i32.const 3)))
              (f64.sub (f64.load (i32.add (local.get $y) (i32.shl (local.get $rk) (i32.const 3)))) (local.get $t4_3)))
            (local.set $i (i32.add (local.get $i) (i32.const 4)))
            (br $L9)))
        (local.set $i (local.get $i))
        (block $end_i
          (loop $for_i
            (br_if $end_i (i32.ge_s (local.get $i) (local.get $nrows)))
            (local.set $ri (i32.add (local.get $xs) (i32.mul (local.get $i) (local.get $ns))))
            (local.set $t (f64.const 0))
            (local.set $m (i32.const 0))
            (block $end_m_3
              (loop $for_m_3
                (br_if $end_m_3 (i32.ge_s (local.get $m) (local.get $ns)))
                (local.set $t
                  (f64.add
                    (local.get $t)
                    (f64.mul
                      (f64.load
                        (i32.add (local.get $Lx) (i32.shl (i32.add (local.get $ri) (local.get $m)) (i32.const 3))))
                      (f64.load
                        (i32.add (local.get $y) (i32.shl (i32.add (local.get $k1) (local.get $m)) (i32.const 3)))))))
                (local.set $m (i32.add (local.get $m) (i32.const 1)))
                (br $for_m_3)))
            (local.set $rk
              (i32.load
                (i32.add (local.get $superRows) (i32.shl (i32.add (local.get $r0) (local.get $i)) (i32.const 2)))))
            (f64.store
              (i32.add (local.get $y) (i32.shl (local.get $rk) (i32.const 3)))
              (f64.sub (f64.load (i32.add (local.get $y) (i32.shl (local.get $rk) (i32.const 3)))) (local.get $t)))
            (local.set $i (i32.add (local.get $i) (i32.const 1)))
            (br $for_i)))
        (local.set $s (i32.add (local.get $s) (i32.const 1)))
        (br $for_s)))
    (local.set $kk (i32.const 0))
    ;; D w = z
    (block $end_kk_3
      (loop $for_kk_3
        (br_if $end_kk_3 (i32.ge_s (local.get $kk) (local.get $n)))
        (f64.store
          (i32.add (local.get $y) (i32.shl (local.get $kk) (i32.const 3)))
          (f64.div
            (f64.load (i32.add (local.get $y) (i32.shl (local.get $kk) (i32.const 3))))
            (f64.load (i32.add (local.get $D) (i32.shl (local.get $kk) (i32.const 3))))))
        (local.set $kk (i32.add (local.get $kk) (i32.const 1)))
        (br $for_kk_3)))
    (local.set $s2 (i32.sub (local.get $nsuper) (i32.const 1)))
    ;; v = L⁻ᵀ·w (supernodes in reverse: the rows below, then the diagonal block), each step an axpy on the
    ;; contiguous y of a supernode's columns, y(k1 + m) −= L(row, m)·y_row, two entries per f64x2; rows
    ;; whose y_row is 0 are skipped
    (block $end_s2
      (loop $for_s2
        (br_if $end_s2 (i32.le_s (local.get $s2) (i32.const -1)))
        (local.set $k1_2 (i32.load (i32.add (local.get $superStart) (i32.shl (local.get $s2) (i32.const 2)))))
        (local.set $ns2
          (i32.sub
            (i32.load
              (i32.add (local.get $superStart) (i32.shl (i32.add (local.get $s2) (i32.const 1)) (i32.const 2))))
            (local.get $k1_2)))
        (local.set $r0_2 (i32.load (i32.add (local.get $superRowPtr) (i32.shl (local.get $s2) (i32.const 2)))))
        (local.set $nrows2
          (i32.sub
            (i32.load
              (i32.add (local.get $superRowPtr) (i32.shl (i32.add (local.get $s2) (i32.const 1)) (i32.const 2))))
            (local.get $r0_2)))
        (local.set $xs2 (i32.load (i32.add (local.get $superValPtr) (i32.shl (local.get $s2) (i32.const 2)))))
        (local.set $yB (i32.add (local.get $y) (i32.shl (local.get $k1_2) (i32.const 3))))
        (local.set $i2 (local.get $ns2))
        (block $end_i2
          (loop $for_i2
            (br_if $end_i2 (i32.ge_s (local.get $i2) (local.get $nrows2)))
            (local.set $yi
              (f64.load
                (i32.add
                  (local.get $y)
                  (i32.shl
                    (i32.load
                      (i32.add
                        (local.get $superRows)
                        (i32.shl (i32.add (local.get $r0_2) (local.get $i2)) (i32.const 2))))
                    (i32.const 3)))))
            (if $I22 (i32.eqz (f64.eq (local.get $yi) (f64.const 0)))
              (then
                (local.set $lB
                  (i32.add
                    (local.get $Lx)
                    (i32.shl (i32.add (local.get $xs2) (i32.mul (local.get $i2) (local.get $ns2))) (i32.const 3))))
                (local.set $mEnd (i32.shl (local.get $ns2) (i32.const 3)))
                (local.set $mPairs (i32.and (local.get $mEnd) (i32.const -16)))
                (local.set $yv (f64x2.splat (local.get $yi)))
                (local.set $mB2 (i32.const 0))
                (block $B23
                  (loop $L24
                    (br_if $B23 (i32.ge_s (local.get $mB2) (local.get $mPairs)))
                    (v128.store
                      (i32.add (local.get $yB) (local.get $mB2))
                      (f64x2.sub
                        (v128.load (i32.add (local.get $yB) (local.get $mB2)))
                        (f64x2.mul (v128.load (i32.add (local.get $lB) (local.get $mB2))) (local.get $yv))))
                    (local.set $mB2 (i32.add (local.get $mB2) (i32.const 16)))
                    (br $L24)))
                (if $I25 (i32.lt_s (local.get $mPairs) (local.get $mEnd))
                  (then
                    (f64.store
                      (i32.add (local.get $yB) (local.get $mB2))
                      (f64.sub
                        (f64.load (i32.add (local.get $yB) (local.get $mB2)))
                        (f64.mul (f64.load (i32.add (local.get $lB) (local.get $mB2))) (local.get $yi))))))))
            (local.set $i2 (i32.add (local.get $i2) (i32.const 1)))
            (br $for_i2)))
        (local.set $kk2 (i32.sub (local.get $ns2) (i32.const 1)))
        (block $end_kk2
          (loop $for_kk2
            (br_if $end_kk2 (i32.le_s (local.get $kk2) (i32.const 0)))
            (local.set $yi
              (f64.load (i32.add (local.get $y) (i32.shl (i32.add (local.get $k1_2) (local.get $kk2)) (i32.const 3)))))
            (local.set $lB
              (i32.add
                (local.get $Lx)
                (i32.shl (i32.add (local.get $xs2) (i32.mul (local.get $kk2) (local.get $ns2))) (i32.const 3))))
            (local.set $mEnd (i32.shl (local.get $kk2) (i32.const 3)))
            (local.set $mPairs (i32.and (local.get $mEnd) (i32.const -16)))
            (local.set $yv (f64x2.splat (local.get $yi)))
            (local.set $mB2 (i32.const 0))
            (block $B28
              (loop $L29
                (br_if $B28 (i32.ge_s (local.get $mB2) (local.get $mPairs)))
                (v128.store
                  (i32.add (local.get $yB) (local.get $mB2))
                  (f64x2.sub
                    (v128.load (i32.add (local.get $yB) (local.get $mB2)))
                    (f64x2.mul (v128.load (i32.add (local.get $lB) (local.get $mB2))) (local.get $yv))))
                (local.set $mB2 (i32.add (local.get $mB2) (i32.const 16)))
                (br $L29)))
            (if $I30 (i32.lt_s (local.get $mPairs) (local.get $mEnd))
              (then
                (f64.store
                  (i32.add (local.get $yB) (local.get $mB2))
                  (f64.sub
                    (f64.load (i32.add (local.get $yB) (local.get $mB2)))
                    (f64.mul (f64.load (i32.add (local.get $lB) (local.get $mB2))) (local.get $yi))))))
            (local.set $kk2 (i32.sub (local.get $kk2) (i32.const 1)))
            (br $for_kk2)))
        (local.set $s2 (i32.sub (local.get $s2) (i32.const 1)))
        (br $for_s2)))
    (local.set $kk2 (i32.const 0))
    ;; vec[perm[k]] = y[k]
    (block $end_kk2_2
      (loop $for_kk2_2
        (br_if $end_kk2_2 (i32.ge_s (local.get $kk2) (local.get $n)))
        (f64.store
          (i32.add
            (local.get $vec)
            (i32.shl (i32.load (i32.add (local.get $perm) (i32.shl (local.get $kk2) (i32.const 2)))) (i32.const 3)))
          (f64.load (i32.add (local.get $y) (i32.shl (local.get $kk2) (i32.const 3)))))
        (local.set $kk2 (i32.add (local.get $kk2) (i32.const 1)))
        (br $for_kk2_2))))

  ;; ldltBackward(): vec = Pᵀ·L⁻ᵀ·y for the y already in the kernel (SupernodalLDLT.backwardSolve), as
  ;; ldltSolve's backward half, also skipping the diagonal block's rows whose y_row is 0
  ;; (SupernodalCompliance's backward solve)
  (func $ldltBackward (export "ldltBackward")
    (local $n i32) (local $nsuper i32) (local $perm i32) (local $superStart i32) (local $superRowPtr i32)
    (local $superRows i32) (local $superValPtr i32) (local $Lx i32) (local $y i32) (local $vec i32) (local $s i32)
    (local $k1 i32) (local $ns i32) (local $r0 i32) (local $nrows i32) (local $xs i32) (local $i i32) (local $kk i32)
    (local $yB i32) (local $lB i32) (local $mB i32) (local $mEnd i32) (local $mPairs i32) (local $yi f64)
    (local $yv v128)
    (local.set $n (i32.load offset=4 (i32.const 0)))
    (local.set $nsuper (i32.load (i32.const 0)))
    (local.set $perm (i32.load offset=80 (i32.const 0)))
    (local.set $superStart (i32.load offset=8 (i32.const 0)))
    (local.set $superRowPtr (i32.load offset=12 (i32.const 0)))
    (local.set $superRows (i32.load offset=16 (i32.const 0)))
    (local.set $superValPtr (i32.load offset=20 (i32.const 0)))
    (local.set $Lx (i32.load offset=64 (i32.const 0)))
    (local.set $y (i32.load offset=84 (i32.const 0)))
    (local.set $vec (i32.load offset=88 (i32.const 0)))
    (local.set $s (i32.sub (local.get $nsuper) (i32.const 1)))
    (block $end_s
      (loop $for_s
        (br_if $end_s (i32.le_s (local.get $s) (i32.const -1)))
        (local.set $k1 (i32.load (i32.add (local.get $superStart) (i32.shl (local.get $s) (i32.const 2)))))
        (local.set $ns
          (i32.sub
            (i32.load
              (i32.add (local.get $superStart) (i32.shl (i32.add (local.get $s) (i32.const 1)) (i32.const 2))))
            (local.get $k1)))
        (local.set $r0 (i32.load (i32.add (local.get $superRowPtr) (i32.shl (local.get $s) (i32.const 2)))))
        (local.set $nrows
          (i32.sub
            (i32.load
              (i32.add (local.get $superRowPtr) (i32.shl (i32.add (local.get $s) (i32.const 1)) (i32.const 2))))
            (local.get $r0)))
        (local.set $xs (i32.load (i32.add (local.get $superValPtr) (i32.shl (local.get $s) (i32.const 2)))))
        (local.set $yB (i32.add (local.get $y) (i32.shl (local.get $k1) (i32.const 3))))
        (local.set $i (local.get $ns))
        (block $end_i
          (loop $for_i
            (br_if $end_i (i32.ge_s (local.get $i) (local.get $nrows)))
            (local.set $yi
              (f64.load
                (i32.add
                  (local.get $y)
                  (i32.shl
                    (i32.load
                      (i32.add
                        (local.get $superRows)
                        (i32.shl (i32.add (local.get $r0) (local.get $i)) (i32.const 2))))
                    (i32.const 3)))))
            (if $I4 (i32.eqz (f64.eq (local.get $yi) (f64.const 0)))
              (then
                (local.set $lB
                  (i32.add
                    (local.get $Lx)
                    (i32.shl (i32.add (local.get $xs) (i32.mul (local.get $i) (local.get $ns))) (i32.const 3))))
                (local.set $mEnd (i32.shl (local.get $ns) (i32.const 3)))
                (local.set $mPairs (i32.and (local.get $mEnd) (i32.const -16)))
                (local.set $yv (f64x2.splat (local.get $yi)))
                (local.set $mB (i32.const 0))
                (block $B5
                  (loop $L6
                    (br_if $B5 (i32.ge_s (local.get $mB) (local.get $mPairs)))
                    (v128.store
                      (i32.add (local.get $yB) (local.get $mB))
                      (f64x2.sub
                        (v128.load (i32.add (local.get $yB) (local.get $mB)))
                        (f64x2.mul (v128.load (i32.add (local.get $lB) (local.get $mB))) (local.get $yv))))
                    (local.set $mB (i32.add (local.get $mB) (i32.const 16)))
                    (br $L6)))
                (if $I7 (i32.lt_s (local.get $mPairs) (local.get $mEnd))
                  (then
                    (f64.store
                      (i32.add (local.get $yB) (local.get $mB))
                      (f64.sub
                        (f64.load (i32.add (local.get $yB) (local.get $mB)))
                        (f64.mul (f64.load (i32.add (local.get $lB) (local.get $mB))) (local.get $yi))))))))
            (local.set $i (i32.add (local.get $i) (i32.const 1)))
            (br $for_i)))
        (local.set $kk (i32.sub (local.get $ns) (i32.const 1)))
        (block $end_kk
          (loop $for_kk
            (br_if $end_kk (i32.le_s (local.get $kk) (i32.const 0)))
            (local.set $yi
              (f64.load (i32.add (local.get $y) (i32.shl (i32.add (local.get $k1) (local.get $kk)) (i32.const 3)))))
            (if $I10 (i32.eqz (f64.eq (local.get $yi) (f64.const 0)))
              (then
                (local.set $lB
                  (i32.add
                    (local.get $Lx)
                    (i32.shl (i32.add (local.get $xs) (i32.mul (local.get $kk) (local.get $ns))) (i32.const 3))))
                (local.set $mEnd (i32.shl (local.get $kk) (i32.const 3)))
                (local.set $mPairs (i32.and (local.get $mEnd) (i32.const -16)))
                (local.set $yv (f64x2.splat (local.get $yi)))
                (local.set $mB (i32.const 0))
                (block $B11
                  (loop $L12
                    (br_if $B11 (i32.ge_s (local.get $mB) (local.get $mPairs)))
                    (v128.store
                      (i32.add (local.get $yB) (local.get $mB))
                      (f64x2.sub
                        (v128.load (i32.add (local.get $yB) (local.get $mB)))
                        (f64x2.mul (v128.load (i32.add (local.get $lB) (local.get $mB))) (local.get $yv))))
                    (local.set $mB (i32.add (local.get $mB) (i32.const 16)))
                    (br $L12)))
                (if $I13 (i32.lt_s (local.get $mPairs) (local.get $mEnd))
                  (then
                    (f64.store
                      (i32.add (local.get $yB) (local.get $mB))
                      (f64.sub
                        (f64.load (i32.add (local.get $yB) (local.get $mB)))
                        (f64.mul (f64.load (i32.add (local.get $lB) (local.get $mB))) (local.get $yi))))))))
            (local.set $kk (i32.sub (local.get $kk) (i32.const 1)))
            (br $for_kk)))
        (local.set $s (i32.sub (local.get $s) (i32.const 1)))
        (br $for_s)))
    (local.set $kk (i32.const 0))
    ;; vec[perm[k]] = y[k]
    (block $end_kk_2
      (loop $for_kk_2
        (br_if $end_kk_2 (i32.ge_s (local.get $kk) (local.get $n)))
        (f64.store
          (i32.add
            (local.get $vec)
            (i32.shl (i32.load (i32.add (local.get $perm) (i32.shl (local.get $kk) (i32.const 2)))) (i32.const 3)))
          (f64.load (i32.add (local.get $y) (i32.shl (local.get $kk) (i32.const 3)))))
        (local.set $kk (i32.add (local.get $kk) (i32.const 1)))
        (br $for_kk_2))))

  ;; ldltPairLowerSolve(xB, ns, yB, ncol): Y ← L_ss⁻¹·Y for the unit lower triangle of a diagonal block
  ;; (ns × ns, row by row at byte xB) and ncol columns of ns in the paired layout at byte yB
  ;; (SupernodalCompliance's forward solve): y_k −= Σ_{q<k} L_kq·y_q in q order, a pair of columns per
  ;; f64x2, two pairs at a time (the scalar code's values; a padding lane stays 0)
  (func $ldltPairLowerSolve (export "ldltPairLowerSolve") (param $xB i32) (param $ns i32) (param $yB i32) (param $ncol i32)
    (local $p i32) (local $npair i32) (local $pairB i32) (local $u i32) (local $kk i32) (local $rowB i32)
    (local $qB i32) (local $qEnd i32) (local $acc0 v128) (local $acc1 v128) (local $l v128)
    (local.set $npair (i32.shr_s (i32.add (local.get $ncol) (i32.const 1)) (i32.const 1)))
    (local.set $pairB (i32.shl (local.get $ns) (i32.const 4)))
    (local.set $p (i32.const 0))
    (block $B0
      (loop $L1
        (br_if $B0 (i32.ge_s (i32.add (local.get $p) (i32.const 1)) (local.get $npair)))
        (local.set $u (i32.add (local.get $yB) (i32.mul (local.get $p) (local.get $pairB))))
        (local.set $kk (i32.const 1))
        (block $end_kk
          (loop $for_kk
            (br_if $end_kk (i32.ge_s (local.get $kk) (local.get $ns)))
            (local.set $rowB
              (i32.add (local.get $xB) (i32.shl (i32.mul (local.get $kk) (local.get $ns)) (i32.const 3))))
            (local.set $acc0 (v128.load (i32.add (local.get $u) (i32.shl (local.get $kk) (i32.const 4)))))
            (local.set $acc1
              (v128.load
                (i32.add (i32.add (local.get $u) (local.get $pairB)) (i32.shl (local.get $kk) (i32.const 4)))))
            (local.set $qEnd (i32.shl (local.get $kk) (i32.const 3)))
            (local.set $qB (i32.const 0))
            (block $B4
              (loop $L5
                (br_if $B4 (i32.ge_s (local.get $qB) (local.get $qEnd)))
                (local.set $l (v128.load64_splat (i32.add (local.get $rowB) (local.get $qB))))
                (local.set $acc0
                  (f64x2.sub
                    (local.get $acc0)
                    (f64x2.mul
                      (local.get $l)
                      (v128.load (i32.add (local.get $u) (i32.shl (local.get $qB) (i32.const 1)))))))
                (local.set $acc1
                  (f64x2.sub
                    (local.get $acc1)
                    (f64x2.mul
                      (local.get $l)
                      (v128.load
                        (i32.add (i32.add (local.get $u) (local.get $pairB)) (i32.shl (local.get $qB) (i32.const 1)))))))
                (local.set $qB (i32.add (local.get $qB) (i32.const 8)))
                (br $L5)))
            (v128.store (i32.add (local.get $u) (i32.shl (local.get $kk) (i32.const 4))) (local.get $acc0))
            (v128.store
              (i32.add (i32.add (local.get $u) (local.get $pairB)) (i32.shl (local.get $kk) (i32.const 4)))
              (local.get $acc1))
            (local.set $kk (i32.add (local.get $kk) (i32.const 1)))
            (br $for_kk)))
        (local.set $p (i32.add (local.get $p) (i32.const 2)))
        (br $L1)))
    (if $I6 (i32.lt_s (local.get $p) (local.get $npair))
      (then
        (local.set $u (i32.add (local.get $yB) (i32.mul (local.get $p) (local.get $pairB))))
        (local.set $kk (i32.const 1))
        (block $end_kk_2
          (loop $for_kk_2
            (br_if $end_kk_2 (i32.ge_s (local.get $kk) (local.get $ns)))
            (local.set $rowB
              (i32.add (local.get $xB) (i32.shl (i32.mul (local.get $kk) (local.get $ns)) (i32.const 3))))
            (local.set $acc0 (v128.load (i32.add (local.get $u) (i32.shl (local.get $kk) (i32.const 4)))))
            (local.set $qEnd (i32.shl (local.get $kk) (i32.const 3)))
            (local.set $qB (i32.const 0))
            (block $B9
              (loop $L10
                (br_if $B9 (i32.ge_s (local.get $qB) (local.get $qEnd)))
                (local.set $l (v128.load64_splat (i32.add (local.get $rowB) (local.get $qB))))
                (local.set $acc0
                  (f64x2.sub
                    (local.get $acc0)
                    (f64x2.mul
                      (local.get $l)
                      (v128.load (i32.add (local.get $u) (i32.shl (local.get $qB) (i32.const 1)))))))
                (local.set $qB (i32.add (local.get $qB) (i32.const 8)))
                (br $L10)))
            (v128.store (i32.add (local.get $u) (i32.shl (local.get $kk) (i32.const 4))) (local.get $acc0))
            (local.set $kk (i32.add (local.get $kk) (i32.const 1)))
            (br $for_kk_2))))))
  ;; ldltGram(yB, ns, na, dB, outB): for a supernode's block of Y (ns rows, na columns by pairs: entry
  ;; (k, c) at yB + 16·(⌊c/2⌋·ns + k) + 8·(c mod 2), an odd last column's partner 0) and its pivots
  ;; D (ns f64 at dB), the sums g(c1, c) = Σ_k (y_k,c1 · y_k,c) / D_k, k = 0 … ns−1 in order from 0,
  ;; for every column c1 and every pair of columns from c1's: pair p (columns 2p, 2p+1) of row c1 at
  ;; outB + 16·(c1·npair + p), npair = ⌈na/2⌉ (SupernodalCompliance.addGram's sums, the two columns
  ;; of a pair in the two lanes; the lanes of a column below c1 or past na are not read).
  (func $ldltGram (export "ldltGram") (param $yB i32) (param $ns i32) (param $na i32) (param $dB i32) (param $outB i32)
    (local $npair i32) (local $pairB i32) (local $c1 i32) (local $p i32) (local $y1 i32) (local $yp i32)
    (local $k i32) (local $acc v128) (local $o i32)
    (local.set $npair (i32.shr_u (i32.add (local.get $na) (i32.const 1)) (i32.const 1)))
    (local.set $pairB (i32.shl (local.get $ns) (i32.const 4)))
    (local.set $c1 (i32.const 0))
    (block $end_c1
      (loop $for_c1
        (br_if $end_c1 (i32.ge_u (local.get $c1) (local.get $na)))
        ;; column c1: its lane of its pair
        (local.set $y1
          (i32.add
            (i32.add (local.get $yB) (i32.mul (i32.shr_u (local.get $c1) (i32.const 1)) (local.get $pairB)))
            (i32.shl (i32.and (local.get $c1) (i32.const 1)) (i32.const 3))))
        (local.set $p (i32.shr_u (local.get $c1) (i32.const 1)))
        (block $end_p
          (loop $for_p
            (br_if $end_p (i32.ge_u (local.get $p) (local.get $npair)))
            (local.set $yp (i32.add (local.get $yB) (i32.mul (local.get $p) (local.get $pairB))))
            (local.set $acc (f64x2.splat (f64.const 0)))
            (local.set $k (i32.const 0))
            (block $end_k
              (loop $for_k
                (br_if $end_k (i32.ge_u (local.get $k) (local.get $ns)))
                (local.set $acc
                  (f64x2.add
                    (local.get $acc)
                    (f64x2.div
                      (f64x2.mul
                        (v128.load64_splat (i32.add (local.get $y1) (i32.shl (local.get $k) (i32.const 4))))
                        (v128.load (i32.add (local.get $yp) (i32.shl (local.get $k) (i32.const 4)))))
                      (v128.load64_splat (i32.add (local.get $dB) (i32.shl (local.get $k) (i32.const 3)))))))
                (local.set $k (i32.add (local.get $k) (i32.const 1)))
                (br $for_k)))
            (v128.store
              (i32.add
                (local.get $outB)
                (i32.shl (i32.add (i32.mul (local.get $c1) (local.get $npair)) (local.get $p)) (i32.const 4)))
              (local.get $acc))
            (local.set $p (i32.add (local.get $p) (i32.const 1)))
            (br $for_p)))
        (local.set $c1 (i32.add (local.get $c1) (i32.const 1)))
        (br $for_c1)))
  )
)
