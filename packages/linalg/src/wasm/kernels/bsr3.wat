;; y = B·x for a 3x3-block matrix (bsr3.ts) with f64x2 SIMD, and the vector loops of a conjugate
;; gradient over the same memory (bsr3-wasm.ts loads it; the JavaScript bsr3Spmv and
;; conjugate-gradient.ts are the oracles of bsr3.spec.ts and conjugate-gradient.spec.ts).
;; bsr3Spmv(rowPtr, colInd, values, x, y, I0, I1): block rows I0 … I1−1 (byte addresses), with
;; bsr3Spmv's operations in its order, y_r = Σ_blocks (v_r0·x0 + v_r1·x1) + v_r2·x2: rows 0 and 1
;; in the two lanes of f64x2 operations (lane-wise IEEE, no fused multiply-add), row 2 scalar.
;; A block's 9 values are in the kernel's order (KERNEL_ORDER): (0,0), (1,0), (0,1), (1,1), (0,2),
;; (1,2), then row 2: the columns of rows 0 and 1 as pairs.
;; bsr3SpmvDot(…, I0, I1, dot) also stores Σ x_i·y_i over its rows, in index order, at `dot`.
(module
  (import "env" "memory" (memory $env.memory 1 65536 shared))

  (func $bsr3Spmv (export "bsr3Spmv") (param $rowPtr i32) (param $colInd i32) (param $values i32) (param $x i32) (param $y i32) (param $from i32) (param $to i32)
    (local $row i32) (local $b i32) (local $end i32) (local $v i32) (local $xj i32) (local $yo i32) (local $x0 f64)
    (local $x1 f64) (local $x2 f64) (local $y2 f64) (local $y01 v128)
    (local.set $row (local.get $from))
    (block $done
      (loop $blockRow
        (br_if $done (i32.ge_u (local.get $row) (local.get $to)))
        ;; b = rowPtr[row], end = rowPtr[row + 1]; the row's sums from 0
        (local.set $end
          (i32.load offset=4 (local.tee $b (i32.add (local.get $rowPtr) (i32.shl (local.get $row) (i32.const 2))))))
        (local.set $b (i32.load (local.get $b)))
        (local.set $y2 (f64.convert_i32_s (i32.const 0)))
        (local.set $y01 (f64x2.splat (f64.convert_i32_s (i32.const 0))))
        (block $rowDone
          (loop $block
            (br_if $rowDone (i32.ge_u (local.get $b) (local.get $end)))
            ;; block b: xj = x + 24·colInd[b], v = values + 72·b
            (local.set $xj
              (i32.add
                (local.get $x)
                (i32.mul
                  (i32.load (i32.add (local.get $colInd) (i32.shl (local.get $b) (i32.const 2))))
                  (i32.const 24))))
            (local.set $v (i32.add (local.get $values) (i32.mul (local.get $b) (i32.const 72))))
            (local.set $x0 (f64.load (local.get $xj)))
            (local.set $x1 (f64.load offset=8 (local.get $xj)))
            (local.set $x2 (f64.load offset=16 (local.get $xj)))
            ;; (y0, y1) += ((v00, v10)·x0 + (v01, v11)·x1) + (v02, v12)·x2
            (local.set $y01
              (f64x2.add
                (local.get $y01)
                (f64x2.add
                  (f64x2.add
                    (f64x2.mul (v128.load (local.get $v)) (f64x2.splat (local.get $x0)))
                    (f64x2.mul (v128.load offset=16 (local.get $v)) (f64x2.splat (local.get $x1))))
                  (f64x2.mul (v128.load offset=32 (local.get $v)) (f64x2.splat (local.get $x2))))))
            ;; y2 += (v20·x0 + v21·x1) + v22·x2
            (local.set $y2
              (f64.add
                (local.get $y2)
                (f64.add
                  (f64.add
                    (f64.mul (f64.load offset=48 (local.get $v)) (local.get $x0))
                    (f64.mul (f64.load offset=56 (local.get $v)) (local.get $x1)))
                  (f64.mul (f64.load offset=64 (local.get $v)) (local.get $x2)))))
            (local.set $b (i32.add (local.get $b) (i32.const 1)))
            (br $block)))
        ;; y[3·row …] = (y0, y1), y2
        (local.set $yo (i32.add (local.get $y) (i32.mul (local.get $row) (i32.const 24))))
        (v128.store (local.get $yo) (local.get $y01))
        (f64.store offset=16 (local.get $yo) (local.get $y2))
        (local.set $row (i32.add (local.get $row) (i32.const 1)))
        (br $blockRow))))

  ;; bsr3Spmv, and dot = Σ x_i·y_i over the rows (the p·q of a conjugate gradient, bit for bit vector-ops' dot)
  (func $bsr3SpmvDot (export "bsr3SpmvDot") (param $rowPtr i32) (param $colInd i32) (param $values i32) (param $x i32) (param $y i32) (param $from i32) (param $to i32) (param $dotAddr i32)
    (local $row i32) (local $b i32) (local $end i32) (local $v i32) (local $xj i32) (local $yo i32) (local $x0 f64)
    (local $x1 f64) (local $x2 f64) (local $y2 f64) (local $y01 v128) (local $dot f64) (local $xo i32)
    (local.set $dot (f64.convert_i32_s (i32.const 0)))
    (local.set $row (local.get $from))
    (block $done
      (loop $blockRow
        (br_if $done (i32.ge_u (local.get $row) (local.get $to)))
        ;; b = rowPtr[row], end = rowPtr[row + 1]; the row's sums from 0
        (local.set $end
          (i32.load offset=4 (local.tee $b (i32.add (local.get $rowPtr) (i32.shl (local.get $row) (i32.const 2))))))
        (local.set $b (i32.load (local.get $b)))
        (local.set $y2 (f64.convert_i32_s (i32.const 0)))
        (local.set $y01 (f64x2.splat (f64.convert_i32_s (i32.const 0))))
        (block $rowDone
          (loop $block
            (br_if $rowDone (i32.ge_u (local.get $b) (local.get $end)))
            ;; block b: xj = x + 24·colInd[b], v = values + 72·b
            (local.set $xj
              (i32.add
                (local.get $x)
                (i32.mul
                  (i32.load (i32.add (local.get $colInd) (i32.shl (local.get $b) (i32.const 2))))
                  (i32.const 24))))
            (local.set $v (i32.add (local.get $values) (i32.mul (local.get $b) (i32.const 72))))
            (local.set $x0 (f64.load (local.get $xj)))
            (local.set $x1 (f64.load offset=8 (local.get $xj)))
            (local.set $x2 (f64.load offset=16 (local.get $xj)))
            ;; (y0, y1) += ((v00, v10)·x0 + (v01, v11)·x1) + (v02, v12)·x2
            (local.set $y01
              (f64x2.add
                (local.get $y01)
                (f64x2.add
                  (f64x2.add
                    (f64x2.mul (v128.load (local.get $v)) (f64x2.splat (local.get $x0)))
                    (f64x2.mul (v128.load offset=16 (local.get $v)) (f64x2.splat (local.get $x1))))
                  (f64x2.mul (v128.load offset=32 (local.get $v)) (f64x2.splat (local.get $x2))))))
            ;; y2 += (v20·x0 + v21·x1) + v22·x2
            (local.set $y2
              (f64.add
                (local.get $y2)
                (f64.add
                  (f64.add
                    (f64.mul (f64.load offset=48 (local.get $v)) (local.get $x0))
                    (f64.mul (f64.load offset=56 (local.get $v)) (local.get $x1)))
                  (f64.mul (f64.load offset=64 (local.get $v)) (local.get $x2)))))
            (local.set $b (i32.add (local.get $b) (i32.const 1)))
            (br $block)))
        ;; y[3·row …] = (y0, y1), y2
        (local.set $yo (i32.add (local.get $y) (i32.mul (local.get $row) (i32.const 24))))
        (v128.store (local.get $yo) (local.get $y01))
        (f64.store offset=16 (local.get $yo) (local.get $y2))
        ;; dot += x_3r·y_3r; dot += x_3r+1·y_3r+1; dot += x_3r+2·y_3r+2 (index order)
        (local.set $xo (i32.add (local.get $x) (i32.mul (local.get $row) (i32.const 24))))
        (local.set $dot (f64.add (local.get $dot) (f64.mul (f64.load (local.get $xo)) (f64.load (local.get $yo)))))
        (local.set $dot
          (f64.add (local.get $dot) (f64.mul (f64.load offset=8 (local.get $xo)) (f64.load offset=8 (local.get $yo)))))
        (local.set $dot
          (f64.add
            (local.get $dot)
            (f64.mul (f64.load offset=16 (local.get $xo)) (f64.load offset=16 (local.get $yo)))))
        (local.set $row (i32.add (local.get $row) (i32.const 1)))
        (br $blockRow)))
    (f64.store (local.get $dotAddr) (local.get $dot)))

  ;; cgDirection(p, r, n, β): p_i = p_i·β + r_i (vector-ops' aypx)
  (func $cgDirection (export "cgDirection") (param $p i32) (param $r i32) (param $n i32) (param $beta f64)
    (local $end i32)
    (local.set $end (i32.add (local.get $p) (i32.shl (local.get $n) (i32.const 3))))
    (block $done
      (loop $entry
        (br_if $done (i32.ge_u (local.get $p) (local.get $end)))
        (f64.store
          (local.get $p)
          (f64.add (f64.mul (f64.load (local.get $p)) (local.get $beta)) (f64.load (local.get $r))))
        (local.set $p (i32.add (local.get $p) (i32.const 8)))
        (local.set $r (i32.add (local.get $r) (i32.const 8)))
        (br $entry))))

  ;; cgUpdate(x, r, p, q, n, α, rr): x_i += p_i·α; r_i += q_i·(−α); rr = Σ r_i² in index order,
  ;; stored at byte address rr (the fused loop of conjugate-gradient.ts)
  (func $cgUpdate (export "cgUpdate") (param $x i32) (param $r i32) (param $p i32) (param $q i32) (param $n i32) (param $alpha f64) (param $rrAddr i32)
    (local $end i32) (local $nalpha f64) (local $rr f64) (local $ri f64)
    (local.set $nalpha (f64.neg (local.get $alpha)))
    (local.set $rr (f64.const 0))
    (local.set $end (i32.add (local.get $x) (i32.shl (local.get $n) (i32.const 3))))
    (block $done
      (loop $entry
        (br_if $done (i32.ge_u (local.get $x) (local.get $end)))
        (f64.store
          (local.get $x)
          (f64.add (f64.load (local.get $x)) (f64.mul (f64.load (local.get $p)) (local.get $alpha))))
        (local.set $ri (f64.add (f64.load (local.get $r)) (f64.mul (f64.load (local.get $q)) (local.get $nalpha))))
        (f64.store (local.get $r) (local.get $ri))
        (local.set $rr (f64.add (local.get $rr) (f64.mul (local.get $ri) (local.get $ri))))
        (local.set $x (i32.add (local.get $x) (i32.const 8)))
        (local.set $r (i32.add (local.get $r) (i32.const 8)))
        (local.set $p (i32.add (local.get $p) (i32.const 8)))
        (local.set $q (i32.add (local.get $q) (i32.const 8)))
        (br $entry)))
    (f64.store (local.get $rrAddr) (local.get $rr))))

