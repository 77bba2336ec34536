;; The refill of symmetric elements of a FixedPatternAssembler (addSymmetricElementBlocks3; the
;; JavaScript refill is its oracle in fixed-pattern-assembler.spec.ts), element-scatter-wasm.ts:
;; scatterSymmetric(count, n, factor) adds factor·U_e for `count` elements of n nodes whose upper
;; blocks U (count × 9·n(n+1)/2) and first rows (count × n) the caller put in the staging areas,
;; each element through its element operation of the operation table, with the JavaScript
;; refill's operations in its order: bit for bit its values. It stops at the first element whose
;; operation is not an element of n nodes with these rows, or whose nodes repeat (the JavaScript
;; code goes on from there), and writes the cursor and the number of elements done to the header.
;; Header (i32 at byte 0, SCATTER_HEADER): byte addresses of values (f64), ops (i32), rowPtr (i32),
;; starts (i32), U (f64), lens (the per-node row lengths scratch, 2 × 16 i32); cursor; done.
(module
  (import "env" "memory" (memory $env.memory 1 65536 shared))

  (func $scatterSymmetric (export "scatterSymmetric") (param $count i32) (param $n i32) (param $factor f64)
    (local $values i32) (local $ops i32) (local $rowPtr i32) (local $starts i32) (local $U i32) (local $lens i32)
    (local $q i32) (local $e i32) (local $i i32) (local $j i32) (local $sb i32) (local $base i32) (local $u i32)
    (local $r i32) (local $s0 i32) (local $s1 i32) (local $s2 i32) (local $bad i32) (local $f0 f64) (local $f1 f64)
    (local $f2 f64) (local $f3 f64) (local $f4 f64) (local $f5 f64) (local $f6 f64) (local $f7 f64) (local $f8 f64)
    ;; the header's arrays and the cursor q (an index into ops)
    (local.set $values (i32.load (i32.const 0)))
    (local.set $ops (i32.load offset=4 (i32.const 0)))
    (local.set $rowPtr (i32.load offset=8 (i32.const 0)))
    (local.set $starts (i32.load offset=12 (i32.const 0)))
    (local.set $U (i32.load offset=16 (i32.const 0)))
    (local.set $lens (i32.load offset=20 (i32.const 0)))
    (local.set $q (i32.load offset=24 (i32.const 0)))
    (local.set $e (i32.const 0))
    (block $done
      (loop $element
        ;; element e
        (br_if $done (i32.ge_s (local.get $e) (local.get $count)))
        ;; an element operation of n nodes: ops[q] = −1 − n
        (br_if $done
          (i32.ne
            (i32.load (i32.add (local.get $ops) (i32.shl (local.get $q) (i32.const 2))))
            (i32.sub (i32.const -1) (local.get $n))))
        (local.set $sb (i32.mul (local.get $e) (local.get $n)))
        ;; its first rows ops[q + 1 + i] = starts[sb + i], distinct: else bad
        (local.set $bad (i32.const 0))
        (local.set $i (i32.const 0))
        (block $rowsChecked
          (loop $rowI
            (br_if $rowsChecked (i32.ge_s (local.get $i) (local.get $n)))
            (local.set $bad
              (i32.or
                (i32.ne
                  (i32.load
                    (i32.add
                      (local.get $ops)
                      (i32.shl (i32.add (i32.add (local.get $q) (i32.const 1)) (local.get $i)) (i32.const 2))))
                  (i32.load
                    (i32.add (local.get $starts) (i32.shl (i32.add (local.get $sb) (local.get $i)) (i32.const 2)))))
                (local.get $bad)))
            (local.set $j (i32.add (local.get $i) (i32.const 1)))
            (block $pairsChecked
              (loop $rowJ
                (br_if $pairsChecked (i32.ge_s (local.get $j) (local.get $n)))
                (local.set $bad
                  (i32.or
                    (i32.eq
                      (i32.load
                        (i32.add (local.get $starts) (i32.shl (i32.add (local.get $sb) (local.get $i)) (i32.const 2))))
                      (i32.load
                        (i32.add (local.get $starts) (i32.shl (i32.add (local.get $sb) (local.get $j)) (i32.const 2)))))
                    (local.get $bad)))
                (local.set $j (i32.add (local.get $j) (i32.const 1)))
                (br $rowJ)))
            ;; lens[i], lens[16 + i] = the lengths of node i's rows 0 and 1 (r its first row)
            (local.set $r
              (i32.load
                (i32.add (local.get $starts) (i32.shl (i32.add (local.get $sb) (local.get $i)) (i32.const 2)))))
            (i32.store
              (i32.add (local.get $lens) (i32.shl (local.get $i) (i32.const 2)))
              (i32.sub
                (i32.load
                  (i32.add (local.get $rowPtr) (i32.shl (i32.add (local.get $r) (i32.const 1)) (i32.const 2))))
                (i32.load (i32.add (local.get $rowPtr) (i32.shl (local.get $r) (i32.const 2))))))
            (i32.store
              (i32.add (local.get $lens) (i32.shl (i32.add (local.get $i) (i32.const 16)) (i32.const 2)))
              (i32.sub
                (i32.load
                  (i32.add (local.get $rowPtr) (i32.shl (i32.add (local.get $r) (i32.const 2)) (i32.const 2))))
                (i32.load
                  (i32.add (local.get $rowPtr) (i32.shl (i32.add (local.get $r) (i32.const 1)) (i32.const 2))))))
            (local.set $i (i32.add (local.get $i) (i32.const 1)))
            (br $rowI)))
        (br_if $done (local.get $bad))
        ;; base = q + 1 + n: the n × n block slots; u = U + 72·e·n(n+1)/2 (this element's blocks)
        (local.set $base (i32.add (i32.add (local.get $q) (i32.const 1)) (local.get $n)))
        (local.set $u
          (i32.add
            (local.get $U)
            (i32.mul
              (i32.mul
                (local.get $e)
                (i32.shr_s (i32.mul (local.get $n) (i32.add (local.get $n) (i32.const 1))) (i32.const 1)))
              (i32.const 72))))
        (local.set $i (i32.const 0))
        (block $blockRowsDone
          (loop $blockRow
            (br_if $blockRowsDone (i32.ge_s (local.get $i) (local.get $n)))
            (local.set $j (local.get $i))
            (block $blockColsDone
              (loop $blockCol
                (br_if $blockColsDone (i32.ge_s (local.get $j) (local.get $n)))
                ;; block (i, j), j ≥ i: f = factor·U_ij (row-major 3 × 3)
                (local.set $f0 (f64.mul (local.get $factor) (f64.load (local.get $u))))
                (local.set $f1 (f64.mul (local.get $factor) (f64.load offset=8 (local.get $u))))
                (local.set $f2 (f64.mul (local.get $factor) (f64.load offset=16 (local.get $u))))
                (local.set $f3 (f64.mul (local.get $factor) (f64.load offset=24 (local.get $u))))
                (local.set $f4 (f64.mul (local.get $factor) (f64.load offset=32 (local.get $u))))
                (local.set $f5 (f64.mul (local.get $factor) (f64.load offset=40 (local.get $u))))
                (local.set $f6 (f64.mul (local.get $factor) (f64.load offset=48 (local.get $u))))
                (local.set $f7 (f64.mul (local.get $factor) (f64.load offset=56 (local.get $u))))
                (local.set $f8 (f64.mul (local.get $factor) (f64.load offset=64 (local.get $u))))
                ;; s0, s1, s2: the slots of its rows, s0 = ops[base + n·i + j], s1 = s0 + lens[i], s2 = s1 + lens[16 + i]
                ;; values[s_r + c] += f[3r + c]
                (local.set $s0
                  (i32.load
                    (i32.add
                      (local.get $ops)
                      (i32.shl
                        (i32.add (i32.add (local.get $base) (i32.mul (local.get $n) (local.get $i))) (local.get $j))
                        (i32.const 2)))))
                (local.set $s1
                  (i32.add
                    (local.get $s0)
                    (i32.load (i32.add (local.get $lens) (i32.shl (local.get $i) (i32.const 2))))))
                (local.set $s2
                  (i32.add
                    (local.get $s1)
                    (i32.load
                      (i32.add (local.get $lens) (i32.shl (i32.add (local.get $i) (i32.const 16)) (i32.const 2))))))
                (f64.store
                  (local.tee $r (i32.add (local.get $values) (i32.shl (local.get $s0) (i32.const 3))))
                  (f64.add (f64.load (local.get $r)) (local.get $f0)))
                (f64.store offset=8
                  (local.tee $r (i32.add (local.get $values) (i32.shl (local.get $s0) (i32.const 3))))
                  (f64.add (f64.load offset=8 (local.get $r)) (local.get $f1)))
                (f64.store offset=16
                  (local.tee $r (i32.add (local.get $values) (i32.shl (local.get $s0) (i32.const 3))))
                  (f64.add (f64.load offset=16 (local.get $r)) (local.get $f2)))
                (f64.store
                  (local.tee $r (i32.add (local.get $values) (i32.shl (local.get $s1) (i32.const 3))))
                  (f64.add (f64.load (local.get $r)) (local.get $f3)))
                (f64.store offset=8
                  (local.tee $r (i32.add (local.get $values) (i32.shl (local.get $s1) (i32.const 3))))
                  (f64.add (f64.load offset=8 (local.get $r)) (local.get $f4)))
                (f64.store offset=16
                  (local.tee $r (i32.add (local.get $values) (i32.shl (local.get $s1) (i32.const 3))))
                  (f64.add (f64.load offset=16 (local.get $r)) (local.get $f5)))
                (f64.store
                  (local.tee $r (i32.add (local.get $values) (i32.shl (local.get $s2) (i32.const 3))))
                  (f64.add (f64.load (local.get $r)) (local.get $f6)))
                (f64.store offset=8
                  (local.tee $r (i32.add (local.get $values) (i32.shl (local.get $s2) (i32.const 3))))
                  (f64.add (f64.load offset=8 (local.get $r)) (local.get $f7)))
                (f64.store offset=16
                  (local.tee $r (i32.add (local.get $values) (i32.shl (local.get $s2) (i32.const 3))))
                  (f64.add (f64.load offset=16 (local.get $r)) (local.get $f8)))
                ;; block (j, i) = the transpose
                (if $offDiagonal (i32.ne (local.get $j) (local.get $i))
                  (then
                    (local.set $s0
                      (i32.load
                        (i32.add
                          (local.get $ops)
                          (i32.shl
                            (i32.add
                              (i32.add (local.get $base) (i32.mul (local.get $n) (local.get $j)))
                              (local.get $i))
                            (i32.const 2)))))
                    (local.set $s1
                      (i32.add
                        (local.get $s0)
                        (i32.load (i32.add (local.get $lens) (i32.shl (local.get $j) (i32.const 2))))))
                    (local.set $s2
                      (i32.add
                        (local.get $s1)
                        (i32.load
                          (i32.add (local.get $lens) (i32.shl (i32.add (local.get $j) (i32.const 16)) (i32.const 2))))))
                    (f64.store
                      (local.tee $r (i32.add (local.get $values) (i32.shl (local.get $s0) (i32.const 3))))
                      (f64.add (f64.load (local.get $r)) (local.get $f0)))
                    (f64.store offset=8
                      (local.tee $r (i32.add (local.get $values) (i32.shl (local.get $s0) (i32.const 3))))
                      (f64.add (f64.load offset=8 (local.get $r)) (local.get $f3)))
                    (f64.store offset=16
                      (local.tee $r (i32.add (local.get $values) (i32.shl (local.get $s0) (i32.const 3))))
                      (f64.add (f64.load offset=16 (local.get $r)) (local.get $f6)))
                    (f64.store
                      (local.tee $r (i32.add (local.get $values) (i32.shl (local.get $s1) (i32.const 3))))
                      (f64.add (f64.load (local.get $r)) (local.get $f1)))
                    (f64.store offset=8
                      (local.tee $r (i32.add (local.get $values) (i32.shl (local.get $s1) (i32.const 3))))
                      (f64.add (f64.load offset=8 (local.get $r)) (local.get $f4)))
                    (f64.store offset=16
                      (local.tee $r (i32.add (local.get $values) (i32.shl (local.get $s1) (i32.const 3))))
                      (f64.add (f64.load offset=16 (local.get $r)) (local.get $f7)))
                    (f64.store
                      (local.tee $r (i32.add (local.get $values) (i32.shl (local.get $s2) (i32.const 3))))
                      (f64.add (f64.load (local.get $r)) (local.get $f2)))
                    (f64.store offset=8
                      (local.tee $r (i32.add (local.get $values) (i32.shl (local.get $s2) (i32.const 3))))
                      (f64.add (f64.load offset=8 (local.get $r)) (local.get $f5)))
                    (f64.store offset=16
                      (local.tee $r (i32.add (local.get $values) (i32.shl (local.get $s2) (i32.const 3))))
                      (f64.add (f64.load offset=16 (local.get $r)) (local.get $f8)))))
                (local.set $u (i32.add (local.get $u) (i32.const 72)))
                (local.set $j (i32.add (local.get $j) (i32.const 1)))
                (br $blockCol)))
            (local.set $i (i32.add (local.get $i) (i32.const 1)))
            (br $blockRow)))
        ;; the next operation
        (local.set $q (i32.add (local.get $base) (i32.mul (local.get $n) (local.get $n))))
        (local.set $e (i32.add (local.get $e) (i32.const 1)))
        (br $element)))
    ;; the cursor and the number of elements done
    (i32.store offset=24 (i32.const 0) (local.get $q))
    (i32.store offset=28 (i32.const 0) (local.get $e))))

