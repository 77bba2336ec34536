;; The WebAssembly kernels of corotational tetrahedra (tetrahedron-dforce-kernel.ts loads them; the
;; JavaScript CorotationalTetrahedra.addDForce and addForceLarge are their oracles, bit for bit, in
;; TetrahedronFEMForceField.spec.ts and parallel-tetrahedra-product.spec.ts). Each performs, element
;; by element, the JavaScript loop's operations in its order (lane-wise IEEE operations, no fused
;; multiply-add, sqrt and division correctly rounded); the pair kernels (…2) run elements 2p and
;; 2p+1 in the two f64x2 lanes, the single ones (…1) one element, scalar, and the first element
;; of a pair adds to its 4 nodes before the second.
;;
;;   tetDF2(inIdx, outIdx, elem, k, p0, p1, scratch) / tetDF1(…, e0, e1): the matrix-free product
;;     df += −k·Rᵀ·J·K·Jᵀ·R·dx per element (the hottest loop of a CG step);
;;   tetF2(inIdx, elem, rest, delta, p0, p1, scratch) / tetF1(…, e0, e1): the force of
;;     'large' (the frame of the edges R, D = R₀X − R·x, f += Rᵀ·J·K·Jᵀ·D);
;;   tetDFAll(k): every element (the pairs, then the last odd one), the arrays read from the header:
;;     the function a solver running in WebAssembly calls (MatrixFreeCgWasm's product).
;;   tetK2(elem, e0, e1, U): the upper blocks of each element's stiffness −Rᵀ·J·K·Jᵀ·R, for the
;;     assembled path (CorotationalTetrahedra's emitStiffness; rotatedTetrahedronStiffnessUpper is
;;     its oracle), into a batch area U.
;;
;; Memory (byte addresses; TetrahedronDForceWasm lays it out):
;;   header (i32 at 0, 4, 8, 12, 16): the number of elements, inIdx, outIdx, elem, scratch;
;;   scratch (96 bytes per thread): the pair kernels' strain sums and the second element's forces;
;;   inIdx, outIdx (8 i32 per pair): the addresses of the 4 nodes' points of element 2p, then 2p+1
;;     (dx, and df or a deferred slot); a point (x, y, z) is 24 bytes;
;;   elem (24 fields × 2 f64 per pair, field f at +16f, lane = element parity): R (9, rows = the
;;     element frame), the cofactor gradients (12: α β γ of node k at 9 + 3k), (A, B, C)/36V (3);
;;   rest (6 × 2 f64 per pair): the 6 non-zero rest components of D (LARGE_REST_COMPONENTS).
;;   stiffness (90 f64 per element of a batch): tetK2's output.
;;
;; Register pressure (x64 has 16 vector registers): V8 issues a function's loads in their order
;; among its stores but schedules pure arithmetic late, so a pair kernel whose loads all came
;; before its first store would hold every field at once and spill most of them. The pair kernels
;; therefore store the strain sums into the scratch area after each node (the next node's loads
;; follow that store) and the second element's node forces there too (liver's 596 tetrahedra,
;; 19.6 → 16.5 ns per element). Fields are read from the element array where they are used.
(module
  (import "env" "memory" (memory $env.memory 1 65536 shared))

  ;; tetDF2: element pairs p0 … p1−1, f64x2
  (func $tetDF2 (export "tetDF2") (param $inIdx i32) (param $outIdx i32) (param $elem i32) (param $k f64) (param $from i32) (param $to i32) (param $scratch i32)
    (local $it i32) (local $base i32) (local $ii i32) (local $io i32) (local $addr i32) (local $addr1 i32)
    (local $nk v128) (local $P0 v128) (local $P1 v128) (local $P2 v128) (local $X0 v128) (local $X1 v128)
    (local $X2 v128) (local $s0 v128) (local $s1 v128) (local $s2 v128) (local $s3 v128) (local $s4 v128)
    (local $s5 v128) (local $kk0 v128) (local $kk1 v128) (local $kk2 v128) (local $kk3 v128) (local $kk4 v128)
    (local $kk5 v128) (local $F0 v128) (local $F1 v128) (local $F2 v128) (local $out0 v128) (local $out1 v128)
    (local $out2 v128) (local $al v128) (local $be v128) (local $ga v128) (local $nkC v128) (local $xy0 v128)
    (local $xy1 v128)
    ;; −k (exact)
    (local.set $nk (f64x2.splat (f64.neg (local.get $k))))
    (local.set $it (local.get $from))
    (block $done
      (loop $element
        (br_if $done (i32.ge_u (local.get $it) (local.get $to)))
        ;; base = elem + it·384; ii/io = idx + it·32
        (local.set $base (i32.add (local.get $elem) (i32.mul (local.get $it) (i32.const 384))))
        (local.set $ii (i32.add (local.get $inIdx) (i32.shl (local.get $it) (i32.const 5))))
        (local.set $io (i32.add (local.get $outIdx) (i32.shl (local.get $it) (i32.const 5))))
        ;; node 0: P = its dx (x, y, z), both elements’ (x, y) with one 16-byte load each, regrouped per coordinate, then z
        (local.set $xy0 (v128.load (local.tee $addr (i32.load (local.get $ii)))))
        (local.set $xy1 (v128.load (local.tee $addr1 (i32.load offset=16 (local.get $ii)))))
        (local.set $P0 (i8x16.shuffle 0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23 (local.get $xy0) (local.get $xy1)))
        (local.set $P1
          (i8x16.shuffle 8 9 10 11 12 13 14 15 24 25 26 27 28 29 30 31 (local.get $xy0) (local.get $xy1)))
        (local.set $P2 (v128.load64_zero offset=16 (local.get $addr)))
        (local.set $P2 (v128.load64_lane offset=16 1 (local.get $addr1) (local.get $P2)))
        ;; X = R·P (R’s rows: fields 0–8)
        (local.set $X0
          (f64x2.add
            (f64x2.add
              (f64x2.mul (v128.load (local.get $base)) (local.get $P0))
              (f64x2.mul (v128.load offset=16 (local.get $base)) (local.get $P1)))
            (f64x2.mul (v128.load offset=32 (local.get $base)) (local.get $P2))))
        (local.set $X1
          (f64x2.add
            (f64x2.add
              (f64x2.mul (v128.load offset=48 (local.get $base)) (local.get $P0))
              (f64x2.mul (v128.load offset=64 (local.get $base)) (local.get $P1)))
            (f64x2.mul (v128.load offset=80 (local.get $base)) (local.get $P2))))
        (local.set $X2
          (f64x2.add
            (f64x2.add
              (f64x2.mul (v128.load offset=96 (local.get $base)) (local.get $P0))
              (f64x2.mul (v128.load offset=112 (local.get $base)) (local.get $P1)))
            (f64x2.mul (v128.load offset=128 (local.get $base)) (local.get $P2))))
        ;; its terms of the strain Jᵀ·X (SOFA's Voigt order; α β γ: fields 9–11), each sum running over the nodes in order
        (local.set $al (v128.load offset=144 (local.get $base)))
        (local.set $be (v128.load offset=160 (local.get $base)))
        (local.set $ga (v128.load offset=176 (local.get $base)))
        (local.set $s0 (f64x2.mul (local.get $al) (local.get $X0)))
        (local.set $s1 (f64x2.mul (local.get $be) (local.get $X1)))
        (local.set $s2 (f64x2.mul (local.get $ga) (local.get $X2)))
        (local.set $s3
          (f64x2.add (f64x2.mul (local.get $be) (local.get $X0)) (f64x2.mul (local.get $al) (local.get $X1))))
        (local.set $s4
          (f64x2.add (f64x2.mul (local.get $ga) (local.get $X1)) (f64x2.mul (local.get $be) (local.get $X2))))
        (local.set $s5
          (f64x2.add (f64x2.mul (local.get $ga) (local.get $X0)) (f64x2.mul (local.get $al) (local.get $X2))))
        ;; the sums to the scratch area (register pressure)
        (v128.store (local.get $scratch) (local.get $s0))
        (v128.store offset=16 (local.get $scratch) (local.get $s1))
        (v128.store offset=32 (local.get $scratch) (local.get $s2))
        (v128.store offset=48 (local.get $scratch) (local.get $s3))
        (v128.store offset=64 (local.get $scratch) (local.get $s4))
        (v128.store offset=80 (local.get $scratch) (local.get $s5))
        ;; node 1: P = its dx (x, y, z), both elements’ (x, y) with one 16-byte load each, regrouped per coordinate, then z
        (local.set $xy0 (v128.load (local.tee $addr (i32.load offset=4 (local.get $ii)))))
        (local.set $xy1 (v128.load (local.tee $addr1 (i32.load offset=20 (local.get $ii)))))
        (local.set $P0 (i8x16.shuffle 0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23 (local.get $xy0) (local.get $xy1)))
        (local.set $P1
          (i8x16.shuffle 8 9 10 11 12 13 14 15 24 25 26 27 28 29 30 31 (local.get $xy0) (local.get $xy1)))
        (local.set $P2 (v128.load64_zero offset=16 (local.get $addr)))
        (local.set $P2 (v128.load64_lane offset=16 1 (local.get $addr1) (local.get $P2)))
        ;; X = R·P (R’s rows: fields 0–8)
        (local.set $X0
          (f64x2.add
            (f64x2.add
              (f64x2.mul (v128.load (local.get $base)) (local.get $P0))
              (f64x2.mul (v128.load offset=16 (local.get $base)) (local.get $P1)))
            (f64x2.mul (v128.load offset=32 (local.get $base)) (local.get $P2))))
        (local.set $X1
          (f64x2.add
            (f64x2.add
              (f64x2.mul (v128.load offset=48 (local.get $base)) (local.get $P0))
              (f64x2.mul (v128.load offset=64 (local.get $base)) (local.get $P1)))
            (f64x2.mul (v128.load offset=80 (local.get $base)) (local.get $P2))))
        (local.set $X2
          (f64x2.add
            (f64x2.add
              (f64x2.mul (v128.load offset=96 (local.get $base)) (local.get $P0))
              (f64x2.mul (v128.load offset=112 (local.get $base)) (local.get $P1)))
            (f64x2.mul (v128.load offset=128 (local.get $base)) (local.get $P2))))
        ;; its terms of the strain Jᵀ·X (SOFA's Voigt order; α β γ: fields 12–14), each sum running over the nodes in order
        (local.set $al (v128.load offset=192 (local.get $base)))
        (local.set $be (v128.load offset=208 (local.get $base)))
        (local.set $ga (v128.load offset=224 (local.get $base)))
        (local.set $s0 (f64x2.add (local.get $s0) (f64x2.mul (local.get $al) (local.get $X0))))
        (local.set $s1 (f64x2.add (local.get $s1) (f64x2.mul (local.get $be) (local.get $X1))))
        (local.set $s2 (f64x2.add (local.get $s2) (f64x2.mul (local.get $ga) (local.get $X2))))
        (local.set $s3
          (f64x2.add
            (f64x2.add (local.get $s3) (f64x2.mul (local.get $be) (local.get $X0)))
            (f64x2.mul (local.get $al) (local.get $X1))))
        (local.set $s4
          (f64x2.add
            (f64x2.add (local.get $s4) (f64x2.mul (local.get $ga) (local.get $X1)))
            (f64x2.mul (local.get $be) (local.get $X2))))
        (local.set $s5
          (f64x2.add
            (f64x2.add (local.get $s5) (f64x2.mul (local.get $ga) (local.get $X0)))
            (f64x2.mul (local.get $al) (local.get $X2))))
        ;; the sums to the scratch area (register pressure)
        (v128.store (local.get $scratch) (local.get $s0))
        (v128.store offset=16 (local.get $scratch) (local.get $s1))
        (v128.store offset=32 (local.get $scratch) (local.get $s2))
        (v128.store offset=48 (local.get $scratch) (local.get $s3))
        (v128.store offset=64 (local.get $scratch) (local.get $s4))
        (v128.store offset=80 (local.get $scratch) (local.get $s5))
        ;; node 2: P = its dx (x, y, z), both elements’ (x, y) with one 16-byte load each, regrouped per coordinate, then z
        (local.set $xy0 (v128.load (local.tee $addr (i32.load offset=8 (local.get $ii)))))
        (local.set $xy1 (v128.load (local.tee $addr1 (i32.load offset=24 (local.get $ii)))))
        (local.set $P0 (i8x16.shuffle 0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23 (local.get $xy0) (local.get $xy1)))
        (local.set $P1
          (i8x16.shuffle 8 9 10 11 12 13 14 15 24 25 26 27 28 29 30 31 (local.get $xy0) (local.get $xy1)))
        (local.set $P2 (v128.load64_zero offset=16 (local.get $addr)))
        (local.set $P2 (v128.load64_lane offset=16 1 (local.get $addr1) (local.get $P2)))
        ;; X = R·P (R’s rows: fields 0–8)
        (local.set $X0
          (f64x2.add
            (f64x2.add
              (f64x2.mul (v128.load (local.get $base)) (local.get $P0))
              (f64x2.mul (v128.load offset=16 (local.get $base)) (local.get $P1)))
            (f64x2.mul (v128.load offset=32 (local.get $base)) (local.get $P2))))
        (local.set $X1
          (f64x2.add
            (f64x2.add
              (f64x2.mul (v128.load offset=48 (local.get $base)) (local.get $P0))
              (f64x2.mul (v128.load offset=64 (local.get $base)) (local.get $P1)))
            (f64x2.mul (v128.load offset=80 (local.get $base)) (local.get $P2))))
        (local.set $X2
          (f64x2.add
            (f64x2.add
              (f64x2.mul (v128.load offset=96 (local.get $base)) (local.get $P0))
              (f64x2.mul (v128.load offset=112 (local.get $base)) (local.get $P1)))
            (f64x2.mul (v128.load offset=128 (local.get $base)) (local.get $P2))))
        ;; its terms of the strain Jᵀ·X (SOFA's Voigt order; α β γ: fields 15–17), each sum running over the nodes in order
        (local.set $al (v128.load offset=240 (local.get $base)))
        (local.set $be (v128.load offset=256 (local.get $base)))
        (local.set $ga (v128.load offset=272 (local.get $base)))
        (local.set $s0 (f64x2.add (local.get $s0) (f64x2.mul (local.get $al) (local.get $X0))))
        (local.set $s1 (f64x2.add (local.get $s1) (f64x2.mul (local.get $be) (local.get $X1))))
        (local.set $s2 (f64x2.add (local.get $s2) (f64x2.mul (local.get $ga) (local.get $X2))))
        (local.set $s3
          (f64x2.add
            (f64x2.add (local.get $s3) (f64x2.mul (local.get $be) (local.get $X0)))
            (f64x2.mul (local.get $al) (local.get $X1))))
        (local.set $s4
          (f64x2.add
            (f64x2.add (local.get $s4) (f64x2.mul (local.get $ga) (local.get $X1)))
            (f64x2.mul (local.get $be) (local.get $X2))))
        (local.set $s5
          (f64x2.add
            (f64x2.add (local.get $s5) (f64x2.mul (local.get $ga) (local.get $X0)))
            (f64x2.mul (local.get $al) (local.get $X2))))
        ;; the sums to the scratch area (register pressure)
        (v128.store (local.get $scratch) (local.get $s0))
        (v128.store offset=16 (local.get $scratch) (local.get $s1))
        (v128.store offset=32 (local.get $scratch) (local.get $s2))
        (v128.store offset=48 (local.get $scratch) (local.get $s3))
        (v128.store offset=64 (local.get $scratch) (local.get $s4))
        (v128.store offset=80 (local.get $scratch) (local.get $s5))
        ;; node 3: P = its dx (x, y, z), both elements’ (x, y) with one 16-byte load each, regrouped per coordinate, then z
        (local.set $xy0 (v128.load (local.tee $addr (i32.load offset=12 (local.get $ii)))))
        (local.set $xy1 (v128.load (local.tee $addr1 (i32.load offset=28 (local.get $ii)))))
        (local.set $P0 (i8x16.shuffle 0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23 (local.get $xy0) (local.get $xy1)))
        (local.set $P1
          (i8x16.shuffle 8 9 10 11 12 13 14 15 24 25 26 27 28 29 30 31 (local.get $xy0) (local.get $xy1)))
        (local.set $P2 (v128.load64_zero offset=16 (local.get $addr)))
        (local.set $P2 (v128.load64_lane offset=16 1 (local.get $addr1) (local.get $P2)))
        ;; X = R·P (R’s rows: fields 0–8)
        (local.set $X0
          (f64x2.add
            (f64x2.add
              (f64x2.mul (v128.load (local.get $base)) (local.get $P0))
              (f64x2.mul (v128.load offset=16 (local.get $base)) (local.get $P1)))
            (f64x2.mul (v128.load offset=32 (local.get $base)) (local.get $P2))))
        (local.set $X1
          (f64x2.add
            (f64x2.add
              (f64x2.mul (v128.load offset=48 (local.get $base)) (local.get $P0))
              (f64x2.mul (v128.load offset=64 (local.get $base)) (local.get $P1)))
            (f64x2.mul (v128.load offset=80 (local.get $base)) (local.get $P2))))
        (local.set $X2
          (f64x2.add
            (f64x2.add
              (f64x2.mul (v128.load offset=96 (local.get $base)) (local.get $P0))
              (f64x2.mul (v128.load offset=112 (local.get $base)) (local.get $P1)))
            (f64x2.mul (v128.load offset=128 (local.get $base)) (local.get $P2))))
        ;; its terms of the strain Jᵀ·X (SOFA's Voigt order; α β γ: fields 18–20), each sum running over the nodes in order
        (local.set $al (v128.load offset=288 (local.get $base)))
        (local.set $be (v128.load offset=304 (local.get $base)))
        (local.set $ga (v128.load offset=320 (local.get $base)))
        (local.set $s0 (f64x2.add (local.get $s0) (f64x2.mul (local.get $al) (local.get $X0))))
        (local.set $s1 (f64x2.add (local.get $s1) (f64x2.mul (local.get $be) (local.get $X1))))
        (local.set $s2 (f64x2.add (local.get $s2) (f64x2.mul (local.get $ga) (local.get $X2))))
        (local.set $s3
          (f64x2.add
            (f64x2.add (local.get $s3) (f64x2.mul (local.get $be) (local.get $X0)))
            (f64x2.mul (local.get $al) (local.get $X1))))
        (local.set $s4
          (f64x2.add
            (f64x2.add (local.get $s4) (f64x2.mul (local.get $ga) (local.get $X1)))
            (f64x2.mul (local.get $be) (local.get $X2))))
        (local.set $s5
          (f64x2.add
            (f64x2.add (local.get $s5) (f64x2.mul (local.get $ga) (local.get $X0)))
            (f64x2.mul (local.get $al) (local.get $X2))))
        ;; the sums to the scratch area (register pressure)
        (v128.store (local.get $scratch) (local.get $s0))
        (v128.store offset=16 (local.get $scratch) (local.get $s1))
        (v128.store offset=32 (local.get $scratch) (local.get $s2))
        (v128.store offset=48 (local.get $scratch) (local.get $s3))
        (v128.store offset=64 (local.get $scratch) (local.get $s4))
        (v128.store offset=80 (local.get $scratch) (local.get $s5))
        (local.get $nk)
        ;; kk0…kk2 = −k·(Hooke row · strain); kk3…kk5 = (−k·C)·s, (A, B, C) = fields 21, 22, 23
        (local.set $kk0
          (f64x2.add
            (f64x2.add
              (f64x2.mul (v128.load offset=336 (local.get $base)) (local.get $s0))
              (f64x2.mul (v128.load offset=352 (local.get $base)) (local.get $s1)))
            (f64x2.mul (v128.load offset=352 (local.get $base)) (local.get $s2))))
        (local.get $kk0)
        (local.set $kk0 (f64x2.mul))
        (local.get $nk)
        (local.set $kk1
          (f64x2.add
            (f64x2.add
              (f64x2.mul (v128.load offset=352 (local.get $base)) (local.get $s0))
              (f64x2.mul (v128.load offset=336 (local.get $base)) (local.get $s1)))
            (f64x2.mul (v128.load offset=352 (local.get $base)) (local.get $s2))))
        (local.get $kk1)
        (local.set $kk1 (f64x2.mul))
        (local.get $nk)
        (local.set $kk2
          (f64x2.add
            (f64x2.add
              (f64x2.mul (v128.load offset=352 (local.get $base)) (local.get $s0))
              (f64x2.mul (v128.load offset=352 (local.get $base)) (local.get $s1)))
            (f64x2.mul (v128.load offset=336 (local.get $base)) (local.get $s2))))
        (local.get $kk2)
        (local.set $kk2 (f64x2.mul))
        ;; nkC = −k·C
        (local.set $nkC (f64x2.mul (local.get $nk) (v128.load offset=368 (local.get $base))))
        (local.set $kk3 (f64x2.mul (local.get $nkC) (local.get $s3)))
        (local.set $kk4 (f64x2.mul (local.get $nkC) (local.get $s4)))
        (local.set $kk5 (f64x2.mul (local.get $nkC) (local.get $s5)))
        ;; node 0: F = J·kk in the element frame, out = Rᵀ·F, df[node] += out (the first element’s now, the second’s to the scratch area)
        (local.set $al (v128.load offset=144 (local.get $base)))
        (local.set $be (v128.load offset=160 (local.get $base)))
        (local.set $ga (v128.load offset=176 (local.get $base)))
        (local.set $F0
          (f64x2.add
            (f64x2.add (f64x2.mul (local.get $al) (local.get $kk0)) (f64x2.mul (local.get $be) (local.get $kk3)))
            (f64x2.mul (local.get $ga) (local.get $kk5))))
        (local.set $F1
          (f64x2.add
            (f64x2.add (f64x2.mul (local.get $be) (local.get $kk1)) (f64x2.mul (local.get $al) (local.get $kk3)))
            (f64x2.mul (local.get $ga) (local.get $kk4))))
        (local.set $F2
          (f64x2.add
            (f64x2.add (f64x2.mul (local.get $ga) (local.get $kk2)) (f64x2.mul (local.get $be) (local.get $kk4)))
            (f64x2.mul (local.get $al) (local.get $kk5))))
        (local.set $out0
          (f64x2.add
            (f64x2.add
              (f64x2.mul (v128.load (local.get $base)) (local.get $F0))
              (f64x2.mul (v128.load offset=48 (local.get $base)) (local.get $F1)))
            (f64x2.mul (v128.load offset=96 (local.get $base)) (local.get $F2))))
        (local.set $out1
          (f64x2.add
            (f64x2.add
              (f64x2.mul (v128.load offset=16 (local.get $base)) (local.get $F0))
              (f64x2.mul (v128.load offset=64 (local.get $base)) (local.get $F1)))
            (f64x2.mul (v128.load offset=112 (local.get $base)) (local.get $F2))))
        (local.set $out2
          (f64x2.add
            (f64x2.add
              (f64x2.mul (v128.load offset=32 (local.get $base)) (local.get $F0))
              (f64x2.mul (v128.load offset=80 (local.get $base)) (local.get $F1)))
            (f64x2.mul (v128.load offset=128 (local.get $base)) (local.get $F2))))
        (local.set $addr (i32.load (local.get $io)))
        (v128.store
          (local.get $addr)
          (f64x2.add
            (v128.load (local.get $addr))
            (i8x16.shuffle 0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23 (local.get $out0) (local.get $out1))))
        (f64.store offset=16
          (local.get $addr)
          (f64.add (f64.load offset=16 (local.get $addr)) (f64x2.extract_lane 0 (local.get $out2))))
        (v128.store
          (local.get $scratch)
          (i8x16.shuffle 8 9 10 11 12 13 14 15 24 25 26 27 28 29 30 31 (local.get $out0) (local.get $out1)))
        (f64.store offset=64 (local.get $scratch) (f64x2.extract_lane 1 (local.get $out2)))
        ;; node 1: F = J·kk in the element frame, out = Rᵀ·F, df[node] += out (the first element’s now, the second’s to the scratch area)
        (local.set $al (v128.load offset=192 (local.get $base)))
        (local.set $be (v128.load offset=208 (local.get $base)))
        (local.set $ga (v128.load offset=224 (local.get $base)))
        (local.set $F0
          (f64x2.add
            (f64x2.add (f64x2.mul (local.get $al) (local.get $kk0)) (f64x2.mul (local.get $be) (local.get $kk3)))
            (f64x2.mul (local.get $ga) (local.get $kk5))))
        (local.set $F1
          (f64x2.add
            (f64x2.add (f64x2.mul (local.get $be) (local.get $kk1)) (f64x2.mul (local.get $al) (local.get $kk3)))
            (f64x2.mul (local.get $ga) (local.get $kk4))))
        (local.set $F2
          (f64x2.add
            (f64x2.add (f64x2.mul (local.get $ga) (local.get $kk2)) (f64x2.mul (local.get $be) (local.get $kk4)))
            (f64x2.mul (local.get $al) (local.get $kk5))))
        (local.set $out0
          (f64x2.add
            (f64x2.add
              (f64x2.mul (v128.load (local.get $base)) (local.get $F0))
              (f64x2.mul (v128.load offset=48 (local.get $base)) (local.get $F1)))
            (f64x2.mul (v128.load offset=96 (local.get $base)) (local.get $F2))))
        (local.set $out1
          (f64x2.add
            (f64x2.add
              (f64x2.mul (v128.load offset=16 (local.get $base)) (local.get $F0))
              (f64x2.mul (v128.load offset=64 (local.get $base)) (local.get $F1)))
            (f64x2.mul (v128.load offset=112 (local.get $base)) (local.get $F2))))
        (local.set $out2
          (f64x2.add
            (f64x2.add
              (f64x2.mul (v128.load offset=32 (local.get $base)) (local.get $F0))
              (f64x2.mul (v128.load offset=80 (local.get $base)) (local.get $F1)))
            (f64x2.mul (v128.load offset=128 (local.get $base)) (local.get $F2))))
        (local.set $addr (i32.load offset=4 (local.get $io)))
        (v128.store
          (local.get $addr)
          (f64x2.add
            (v128.load (local.get $addr))
            (i8x16.shuffle 0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23 (local.get $out0) (local.get $out1))))
        (f64.store offset=16
          (local.get $addr)
          (f64.add (f64.load offset=16 (local.get $addr)) (f64x2.extract_lane 0 (local.get $out2))))
        (v128.store offset=16
          (local.get $scratch)
          (i8x16.shuffle 8 9 10 11 12 13 14 15 24 25 26 27 28 29 30 31 (local.get $out0) (local.get $out1)))
        (f64.store offset=72 (local.get $scratch) (f64x2.extract_lane 1 (local.get $out2)))
        ;; node 2: F = J·kk in the element frame, out = Rᵀ·F, df[node] += out (the first element’s now, the second’s to the scratch area)
        (local.set $al (v128.load offset=240 (local.get $base)))
        (local.set $be (v128.load offset=256 (local.get $base)))
        (local.set $ga (v128.load offset=272 (local.get $base)))
        (local.set $F0
          (f64x2.add
            (f64x2.add (f64x2.mul (local.get $al) (local.get $kk0)) (f64x2.mul (local.get $be) (local.get $kk3)))
            (f64x2.mul (local.get $ga) (local.get $kk5))))
        (local.set $F1
          (f64x2.add
            (f64x2.add (f64x2.mul (local.get $be) (local.get $kk1)) (f64x2.mul (local.get $al) (local.get $kk3)))
            (f64x2.mul (local.get $ga) (local.get $kk4))))
        (local.set $F2
          (f64x2.add
            (f64x2.add (f64x2.mul (local.get $ga) (local.get $kk2)) (f64x2.mul (local.get $be) (local.get $kk4)))
            (f64x2.mul (local.get $al) (local.get $kk5))))
        (local.set $out0
          (f64x2.add
            (f64x2.add
              (f64x2.mul (v128.load (local.get $base)) (local.get $F0))
              (f64x2.mul (v128.load offset=48 (local.get $base)) (local.get $F1)))
            (f64x2.mul (v128.load offset=96 (local.get $base)) (local.get $F2))))
        (local.set $out1
          (f64x2.add
            (f64x2.add
              (f64x2.mul (v128.load offset=16 (local.get $base)) (local.get $F0))
              (f64x2.mul (v128.load offset=64 (local.get $base)) (local.get $F1)))
            (f64x2.mul (v128.load offset=112 (local.get $base)) (local.get $F2))))
        (local.set $out2
          (f64x2.add
            (f64x2.add
              (f64x2.mul (v128.load offset=32 (local.get $base)) (local.get $F0))
              (f64x2.mul (v128.load offset=80 (local.get $base)) (local.get $F1)))
            (f64x2.mul (v128.load offset=128 (local.get $base)) (local.get $F2))))
        (local.set $addr (i32.load offset=8 (local.get $io)))
        (v128.store
          (local.get $addr)
          (f64x2.add
            (v128.load (local.get $addr))
            (i8x16.shuffle 0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23 (local.get $out0) (local.get $out1))))
        (f64.store offset=16
          (local.get $addr)
          (f64.add (f64.load offset=16 (local.get $addr)) (f64x2.extract_lane 0 (local.get $out2))))
        (v128.store offset=32
          (local.get $scratch)
          (i8x16.shuffle 8 9 10 11 12 13 14 15 24 25 26 27 28 29 30 31 (local.get $out0) (local.get $out1)))
        (f64.store offset=80 (local.get $scratch) (f64x2.extract_lane 1 (local.get $out2)))
        ;; node 3: F = J·kk in the element frame, out = Rᵀ·F, df[node] += out (the first element’s now, the second’s to the scratch area)
        (local.set $al (v128.load offset=288 (local.get $base)))
        (local.set $be (v128.load offset=304 (local.get $base)))
        (local.set $ga (v128.load offset=320 (local.get $base)))
        (local.set $F0
          (f64x2.add
            (f64x2.add (f64x2.mul (local.get $al) (local.get $kk0)) (f64x2.mul (local.get $be) (local.get $kk3)))
            (f64x2.mul (local.get $ga) (local.get $kk5))))
        (local.set $F1
          (f64x2.add
            (f64x2.add (f64x2.mul (local.get $be) (local.get $kk1)) (f64x2.mul (local.get $al) (local.get $kk3)))
            (f64x2.mul (local.get $ga) (local.get $kk4))))
        (local.set $F2
          (f64x2.add
            (f64x2.add (f64x2.mul (local.get $ga) (local.get $kk2)) (f64x2.mul (local.get $be) (local.get $kk4)))
            (f64x2.mul (local.get $al) (local.get $kk5))))
        (local.set $out0
          (f64x2.add
            (f64x2.add
              (f64x2.mul (v128.load (local.get $base)) (local.get $F0))
              (f64x2.mul (v128.load offset=48 (local.get $base)) (local.get $F1)))
            (f64x2.mul (v128.load offset=96 (local.get $base)) (local.get $F2))))
        (local.set $out1
          (f64x2.add
            (f64x2.add
              (f64x2.mul (v128.load offset=16 (local.get $base)) (local.get $F0))
              (f64x2.mul (v128.load offset=64 (local.get $base)) (local.get $F1)))
            (f64x2.mul (v128.load offset=112 (local.get $base)) (local.get $F2))))
        (local.set $out2
          (f64x2.add
            (f64x2.add
              (f64x2.mul (v128.load offset=32 (local.get $base)) (local.get $F0))
              (f64x2.mul (v128.load offset=80 (local.get $base)) (local.get $F1)))
            (f64x2.mul (v128.load offset=128 (local.get $base)) (local.get $F2))))
        (local.set $addr (i32.load offset=12 (local.get $io)))
        (v128.store
          (local.get $addr)
          (f64x2.add
            (v128.load (local.get $addr))
            (i8x16.shuffle 0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23 (local.get $out0) (local.get $out1))))
        (f64.store offset=16
          (local.get $addr)
          (f64.add (f64.load offset=16 (local.get $addr)) (f64x2.extract_lane 0 (local.get $out2))))
        (v128.store offset=48
          (local.get $scratch)
          (i8x16.shuffle 8 9 10 11 12 13 14 15 24 25 26 27 28 29 30 31 (local.get $out0) (local.get $out1)))
        (f64.store offset=88 (local.get $scratch) (f64x2.extract_lane 1 (local.get $out2)))
        ;; the second element’s node forces, kept in the scratch area, added to its 4 nodes
        (local.set $addr (i32.load offset=16 (local.get $io)))
        (v128.store (local.get $addr) (f64x2.add (v128.load (local.get $addr)) (v128.load (local.get $scratch))))
        (f64.store offset=16
          (local.get $addr)
          (f64.add (f64.load offset=16 (local.get $addr)) (f64.load offset=64 (local.get $scratch))))
        (local.set $addr (i32.load offset=20 (local.get $io)))
        (v128.store
          (local.get $addr)
          (f64x2.add (v128.load (local.get $addr)) (v128.load offset=16 (local.get $scratch))))
        (f64.store offset=16
          (local.get $addr)
          (f64.add (f64.load offset=16 (local.get $addr)) (f64.load offset=72 (local.get $scratch))))
        (local.set $addr (i32.load offset=24 (local.get $io)))
        (v128.store
          (local.get $addr)
          (f64x2.add (v128.load (local.get $addr)) (v128.load offset=32 (local.get $scratch))))
        (f64.store offset=16
          (local.get $addr)
          (f64.add (f64.load offset=16 (local.get $addr)) (f64.load offset=80 (local.get $scratch))))
        (local.set $addr (i32.load offset=28 (local.get $io)))
        (v128.store
          (local.get $addr)
          (f64x2.add (v128.load (local.get $addr)) (v128.load offset=48 (local.get $scratch))))
        (f64.store offset=16
          (local.get $addr)
          (f64.add (f64.load offset=16 (local.get $addr)) (f64.load offset=88 (local.get $scratch))))
        (local.set $it (i32.add (local.get $it) (i32.const 1)))
        (br $element))))

  ;; tetDF1: single elements e0 … e1−1, scalar
  (func $tetDF1 (export "tetDF1") (param $inIdx i32) (param $outIdx i32) (param $elem i32) (param $k f64) (param $from i32) (param $to i32)
    (local $it i32) (local $base i32) (local $ii i32) (local $io i32) (local $addr i32) (local $addr1 i32)
    (local $nk f64) (local $P0 f64) (local $P1 f64) (local $P2 f64) (local $X0 f64) (local $X1 f64) (local $X2 f64)
    (local $s0 f64) (local $s1 f64) (local $s2 f64) (local $s3 f64) (local $s4 f64) (local $s5 f64) (local $kk0 f64)
    (local $kk1 f64) (local $kk2 f64) (local $kk3 f64) (local $kk4 f64) (local $kk5 f64) (local $F0 f64)
    (local $F1 f64) (local $F2 f64) (local $out0 f64) (local $out1 f64) (local $out2 f64) (local $al f64)
    (local $be f64) (local $ga f64) (local $nkC f64)
    ;; −k (exact)
    (local.set $nk (f64.neg (local.get $k)))
    (local.set $it (local.get $from))
    (block $done
      (loop $element
        (br_if $done (i32.ge_u (local.get $it) (local.get $to)))
        ;; lane (it & 1) of pair it >> 1: base = elem + (it>>1)·384 + (it&1)·8; ii/io = idx + it·16
        (local.set $base
          (i32.add
            (i32.add (local.get $elem) (i32.shl (i32.and (local.get $it) (i32.const 1)) (i32.const 3)))
            (i32.mul (i32.and (local.get $it) (i32.const -2)) (i32.const 192))))
        (local.set $ii (i32.add (local.get $inIdx) (i32.shl (local.get $it) (i32.const 4))))
        (local.set $io (i32.add (local.get $outIdx) (i32.shl (local.get $it) (i32.const 4))))
        ;; node 0: P = its dx (x, y, z)
        (local.set $P0 (f64.load (i32.load (local.get $ii))))
        (local.set $P1 (f64.load offset=8 (i32.load (local.get $ii))))
        (local.set $P2 (f64.load offset=16 (i32.load (local.get $ii))))
        ;; X = R·P (R’s rows: fields 0–8)
        (local.set $X0
          (f64.add
            (f64.add
              (f64.mul (f64.load (local.get $base)) (local.get $P0))
              (f64.mul (f64.load offset=16 (local.get $base)) (local.get $P1)))
            (f64.mul (f64.load offset=32 (local.get $base)) (local.get $P2))))
        (local.set $X1
          (f64.add
            (f64.add
              (f64.mul (f64.load offset=48 (local.get $base)) (local.get $P0))
              (f64.mul (f64.load offset=64 (local.get $base)) (local.get $P1)))
            (f64.mul (f64.load offset=80 (local.get $base)) (local.get $P2))))
        (local.set $X2
          (f64.add
            (f64.add
              (f64.mul (f64.load offset=96 (local.get $base)) (local.get $P0))
              (f64.mul (f64.load offset=112 (local.get $base)) (local.get $P1)))
            (f64.mul (f64.load offset=128 (local.get $base)) (local.get $P2))))
        ;; its terms of the strain Jᵀ·X (SOFA's Voigt order; α β γ: fields 9–11), each sum running over the nodes in order
        (local.set $al (f64.load offset=144 (local.get $base)))
        (local.set $be (f64.load offset=160 (local.get $base)))
        (local.set $ga (f64.load offset=176 (local.get $base)))
        (local.set $s0 (f64.mul (local.get $al) (local.get $X0)))
        (local.set $s1 (f64.mul (local.get $be) (local.get $X1)))
        (local.set $s2 (f64.mul (local.get $ga) (local.get $X2)))
        (local.set $s3 (f64.add (f64.mul (local.get $be) (local.get $X0)) (f64.mul (local.get $al) (local.get $X1))))
        (local.set $s4 (f64.add (f64.mul (local.get $ga) (local.get $X1)) (f64.mul (local.get $be) (local.get $X2))))
        (local.set $s5 (f64.add (f64.mul (local.get $ga) (local.get $X0)) (f64.mul (local.get $al) (local.get $X2))))
        ;; node 1: P = its dx (x, y, z)
        (local.set $P0 (f64.load (i32.load offset=4 (local.get $ii))))
        (local.set $P1 (f64.load offset=8 (i32.load offset=4 (local.get $ii))))
        (local.set $P2 (f64.load offset=16 (i32.load offset=4 (local.get $ii))))
        ;; X = R·P (R’s rows: fields 0–8)
        (local.set $X0
          (f64.add
            (f64.add
              (f64.mul (f64.load (local.get $base)) (local.get $P0))
              (f64.mul (f64.load offset=16 (local.get $base)) (local.get $P1)))
            (f64.mul (f64.load offset=32 (local.get $base)) (local.get $P2))))
        (local.set $X1
          (f64.add
            (f64.add
              (f64.mul (f64.load offset=48 (local.get $base)) (local.get $P0))
              (f64.mul (f64.load offset=64 (local.get $base)) (local.get $P1)))
            (f64.mul (f64.load offset=80 (local.get $base)) (local.get $P2))))
        (local.set $X2
          (f64.add
            (f64.add
              (f64.mul (f64.load offset=96 (local.get $base)) (local.get $P0))
              (f64.mul (f64.load offset=112 (local.get $base)) (local.get $P1)))
            (f64.mul (f64.load offset=128 (local.get $base)) (local.get $P2))))
        ;; its terms of the strain Jᵀ·X (SOFA's Voigt order; α β γ: fields 12–14), each sum running over the nodes in order
        (local.set $al (f64.load offset=192 (local.get $base)))
        (local.set $be (f64.load offset=208 (local.get $base)))
        (local.set $ga (f64.load offset=224 (local.get $base)))
        (local.set $s0 (f64.add (local.get $s0) (f64.mul (local.get $al) (local.get $X0))))
        (local.set $s1 (f64.add (local.get $s1) (f64.mul (local.get $be) (local.get $X1))))
        (local.set $s2 (f64.add (local.get $s2) (f64.mul (local.get $ga) (local.get $X2))))
        (local.set $s3
          (f64.add
            (f64.add (local.get $s3) (f64.mul (local.get $be) (local.get $X0)))
            (f64.mul (local.get $al) (local.get $X1))))
        (local.set $s4
          (f64.add
            (f64.add (local.get $s4) (f64.mul (local.get $ga) (local.get $X1)))
            (f64.mul (local.get $be) (local.get $X2))))
        (local.set $s5
          (f64.add
            (f64.add (local.get $s5) (f64.mul (local.get $ga) (local.get $X0)))
            (f64.mul (local.get $al) (local.get $X2))))
        ;; node 2: P = its dx (x, y, z)
        (local.set $P0 (f64.load (i32.load offset=8 (local.get $ii))))
        (local.set $P1 (f64.load offset=8 (i32.load offset=8 (local.get $ii))))
        (local.set $P2 (f64.load offset=16 (i32.load offset=8 (local.get $ii))))
        ;; X = R·P (R’s rows: fields 0–8)
        (local.set $X0
          (f64.add
            (f64.add
              (f64.mul (f64.load (local.get $base)) (local.get $P0))
              (f64.mul (f64.load offset=16 (local.get $base)) (local.get $P1)))
            (f64.mul (f64.load offset=32 (local.get $base)) (local.get $P2))))
        (local.set $X1
          (f64.add
            (f64.add
              (f64.mul (f64.load offset=48 (local.get $base)) (local.get $P0))
              (f64.mul (f64.load offset=64 (local.get $base)) (local.get $P1)))
            (f64.mul (f64.load offset=80 (local.get $base)) (local.get $P2))))
        (local.set $X2
          (f64.add
            (f64.add
              (f64.mul (f64.load offset=96 (local.get $base)) (local.get $P0))
              (f64.mul (f64.load offset=112 (local.get $base)) (local.get $P1)))
            (f64.mul (f64.load offset=128 (local.get $base)) (local.get $P2))))
        ;; its terms of the strain Jᵀ·X (SOFA's Voigt order; α β γ: fields 15–17), each sum running over the nodes in order
        (local.set $al (f64.load offset=240 (local.get $base)))
        (local.set $be (f64.load offset=256 (local.get $base)))
        (local.set $ga (f64.load offset=272 (local.get $base)))
        (local.set $s0 (f64.add (local.get $s0) (f64.mul (local.get $al) (local.get $X0))))
        (local.set $s1 (f64.add (local.get $s1) (f64.mul (local.get $be) (local.get $X1))))
        (local.set $s2 (f64.add (local.get $s2) (f64.mul (local.get $ga) (local.get $X2))))
        (local.set $s3
          (f64.add
            (f64.add (local.get $s3) (f64.mul (local.get $be) (local.get $X0)))
            (f64.mul (local.get $al) (local.get $X1))))
        (local.set $s4
          (f64.add
            (f64.add (local.get $s4) (f64.mul (local.get $ga) (local.get $X1)))
            (f64.mul (local.get $be) (local.get $X2))))
        (local.set $s5
          (f64.add
            (f64.add (local.get $s5) (f64.mul (local.get $ga) (local.get $X0)))
            (f64.mul (local.get $al) (local.get $X2))))
        ;; node 3: P = its dx (x, y, z)
        (local.set $P0 (f64.load (i32.load offset=12 (local.get $ii))))
        (local.set $P1 (f64.load offset=8 (i32.load offset=12 (local.get $ii))))
        (local.set $P2 (f64.load offset=16 (i32.load offset=12 (local.get $ii))))
        ;; X = R·P (R’s rows: fields 0–8)
        (local.set $X0
          (f64.add
            (f64.add
              (f64.mul (f64.load (local.get $base)) (local.get $P0))
              (f64.mul (f64.load offset=16 (local.get $base)) (local.get $P1)))
            (f64.mul (f64.load offset=32 (local.get $base)) (local.get $P2))))
        (local.set $X1
          (f64.add
            (f64.add
              (f64.mul (f64.load offset=48 (local.get $base)) (local.get $P0))
              (f64.mul (f64.load offset=64 (local.get $base)) (local.get $P1)))
            (f64.mul (f64.load offset=80 (local.get $base)) (local.get $P2))))
        (local.set $X2
          (f64.add
            (f64.add
              (f64.mul (f64.load offset=96 (local.get $base)) (local.get $P0))
              (f64.mul (f64.load offset=112 (local.get $base)) (local.get $P1)))
            (f64.mul (f64.load offset=128 (local.get $base)) (local.get $P2))))
        ;; its terms of the strain Jᵀ·X (SOFA's Voigt order; α β γ: fields 18–20), each sum running over the nodes in order
        (local.set $al (f64.load offset=288 (local.get $base)))
        (local.set $be (f64.load offset=304 (local.get $base)))
        (local.set $ga (f64.load offset=320 (local.get $base)))
        (local.set $s0 (f64.add (local.get $s0) (f64.mul (local.get $al) (local.get $X0))))
        (local.set $s1 (f64.add (local.get $s1) (f64.mul (local.get $be) (local.get $X1))))
        (local.set $s2 (f64.add (local.get $s2) (f64.mul (local.get $ga) (local.get $X2))))
        (local.set $s3
          (f64.add
            (f64.add (local.get $s3) (f64.mul (local.get $be) (local.get $X0)))
            (f64.mul (local.get $al) (local.get $X1))))
        (local.set $s4
          (f64.add
            (f64.add (local.get $s4) (f64.mul (local.get $ga) (local.get $X1)))
            (f64.mul (local.get $be) (local.get $X2))))
        (local.set $s5
          (f64.add
            (f64.add (local.get $s5) (f64.mul (local.get $ga) (local.get $X0)))
            (f64.mul (local.get $al) (local.get $X2))))
        (local.get $nk)
        ;; kk0…kk2 = −k·(Hooke row · strain); kk3…kk5 = (−k·C)·s, (A, B, C) = fields 21, 22, 23
        (local.set $kk0
          (f64.add
            (f64.add
              (f64.mul (f64.load offset=336 (local.get $base)) (local.get $s0))
              (f64.mul (f64.load offset=352 (local.get $base)) (local.get $s1)))
            (f64.mul (f64.load offset=352 (local.get $base)) (local.get $s2))))
        (local.get $kk0)
        (local.set $kk0 (f64.mul))
        (local.get $nk)
        (local.set $kk1
          (f64.add
            (f64.add
              (f64.mul (f64.load offset=352 (local.get $base)) (local.get $s0))
              (f64.mul (f64.load offset=336 (local.get $base)) (local.get $s1)))
            (f64.mul (f64.load offset=352 (local.get $base)) (local.get $s2))))
        (local.get $kk1)
        (local.set $kk1 (f64.mul))
        (local.get $nk)
        (local.set $kk2
          (f64.add
            (f64.add
              (f64.mul (f64.load offset=352 (local.get $base)) (local.get $s0))
              (f64.mul (f64.load offset=352 (local.get $base)) (local.get $s1)))
            (f64.mul (f64.load offset=336 (local.get $base)) (local.get $s2))))
        (local.get $kk2)
        (local.set $kk2 (f64.mul))
        ;; nkC = −k·C
        (local.set $nkC (f64.mul (local.get $nk) (f64.load offset=368 (local.get $base))))
        (local.set $kk3 (f64.mul (local.get $nkC) (local.get $s3)))
        (local.set $kk4 (f64.mul (local.get $nkC) (local.get $s4)))
        (local.set $kk5 (f64.mul (local.get $nkC) (local.get $s5)))
        ;; node 0: F = J·kk in the element frame, out = Rᵀ·F, df[node] += out
        (local.set $al (f64.load offset=144 (local.get $base)))
        (local.set $be (f64.load offset=160 (local.get $base)))
        (local.set $ga (f64.load offset=176 (local.get $base)))
        (local.set $F0
          (f64.add
            (f64.add (f64.mul (local.get $al) (local.get $kk0)) (f64.mul (local.get $be) (local.get $kk3)))
            (f64.mul (local.get $ga) (local.get $kk5))))
        (local.set $F1
          (f64.add
            (f64.add (f64.mul (local.get $be) (local.get $kk1)) (f64.mul (local.get $al) (local.get $kk3)))
            (f64.mul (local.get $ga) (local.get $kk4))))
        (local.set $F2
          (f64.add
            (f64.add (f64.mul (local.get $ga) (local.get $kk2)) (f64.mul (local.get $be) (local.get $kk4)))
            (f64.mul (local.get $al) (local.get $kk5))))
        (local.set $out0
          (f64.add
            (f64.add
              (f64.mul (f64.load (local.get $base)) (local.get $F0))
              (f64.mul (f64.load offset=48 (local.get $base)) (local.get $F1)))
            (f64.mul (f64.load offset=96 (local.get $base)) (local.get $F2))))
        (local.set $out1
          (f64.add
            (f64.add
              (f64.mul (f64.load offset=16 (local.get $base)) (local.get $F0))
              (f64.mul (f64.load offset=64 (local.get $base)) (local.get $F1)))
            (f64.mul (f64.load offset=112 (local.get $base)) (local.get $F2))))
        (local.set $out2
          (f64.add
            (f64.add
              (f64.mul (f64.load offset=32 (local.get $base)) (local.get $F0))
              (f64.mul (f64.load offset=80 (local.get $base)) (local.get $F1)))
            (f64.mul (f64.load offset=128 (local.get $base)) (local.get $F2))))
        (local.set $addr (i32.load (local.get $io)))
        (f64.store (local.get $addr) (f64.add (f64.load (local.get $addr)) (local.get $out0)))
        (f64.store offset=8 (local.get $addr) (f64.add (f64.load offset=8 (local.get $addr)) (local.get $out1)))
        (f64.store offset=16 (local.get $addr) (f64.add (f64.load offset=16 (local.get $addr)) (local.get $out2)))
        ;; node 1: F = J·kk in the element frame, out = Rᵀ·F, df[node] += out
        (local.set $al (f64.load offset=192 (local.get $base)))
        (local.set $be (f64.load offset=208 (local.get $base)))
        (local.set $ga (f64.load offset=224 (local.get $base)))
        (local.set $F0
          (f64.add
            (f64.add (f64.mul (local.get $al) (local.get $kk0)) (f64.mul (local.get $be) (local.get $kk3)))
            (f64.mul (local.get $ga) (local.get $kk5))))
        (local.set $F1
          (f64.add
            (f64.add (f64.mul (local.get $be) (local.get $kk1)) (f64.mul (local.get $al) (local.get $kk3)))
            (f64.mul (local.get $ga) (local.get $kk4))))
        (local.set $F2
          (f64.add
            (f64.add (f64.mul (local.get $ga) (local.get $kk2)) (f64.mul (local.get $be) (local.get $kk4)))
            (f64.mul (local.get $al) (local.get $kk5))))
        (local.set $out0
          (f64.add
            (f64.add
              (f64.mul (f64.load (local.get $base)) (local.get $F0))
              (f64.mul (f64.load offset=48 (local.get $base)) (local.get $F1)))
            (f64.mul (f64.load offset=96 (local.get $base)) (local.get $F2))))
        (local.set $out1
          (f64.add
            (f64.add
              (f64.mul (f64.load offset=16 (local.get $base)) (local.get $F0))
              (f64.mul (f64.load offset=64 (local.get $base)) (local.get $F1)))
            (f64.mul (f64.load offset=112 (local.get $base)) (local.get $F2))))
        (local.set $out2
          (f64.add
            (f64.add
              (f64.mul (f64.load offset=32 (local.get $base)) (local.get $F0))
              (f64.mul (f64.load offset=80 (local.get $base)) (local.get $F1)))
            (f64.mul (f64.load offset=128 (local.get $base)) (local.get $F2))))
        (local.set $addr (i32.load offset=4 (local.get $io)))
        (f64.store (local.get $addr) (f64.add (f64.load (local.get $addr)) (local.get $out0)))
        (f64.store offset=8 (local.get $addr) (f64.add (f64.load offset=8 (local.get $addr)) (local.get $out1)))
        (f64.store offset=16 (local.get $addr) (f64.add (f64.load offset=16 (local.get $addr)) (local.get $out2)))
        ;; node 2: F = J·kk in the element frame, out = Rᵀ·F, df[node] += out
        (local.set $al (f64.load offset=240 (local.get $base)))
        (local.set $be (f64.load offset=256 (local.get $base)))
        (local.set $ga (f64.load offset=272 (local.get $base)))
        (local.set $F0
          (f64.add
            (f64.add (f64.mul (local.get $al) (local.get $kk0)) (f64.mul (local.get $be) (local.get $kk3)))
            (f64.mul (local.get $ga) (local.get $kk5))))
        (local.set $F1
          (f64.add
            (f64.add (f64.mul (local.get $be) (local.get $kk1)) (f64.mul (local.get $al) (local.get $kk3)))
            (f64.mul (local.get $ga) (local.get $kk4))))
        (local.set $F2
          (f64.add
            (f64.add (f64.mul (local.get $ga) (local.get $kk2)) (f64.mul (local.get $be) (local.get $kk4)))
            (f64.mul (local.get $al) (local.get $kk5))))
        (local.set $out0
          (f64.add
            (f64.add
              (f64.mul (f64.load (local.get $base)) (local.get $F0))
              (f64.mul (f64.load offset=48 (local.get $base)) (local.get $F1)))
            (f64.mul (f64.load offset=96 (local.get $base)) (local.get $F2))))
        (local.set $out1
          (f64.add
            (f64.add
              (f64.mul (f64.load offset=16 (local.get $base)) (local.get $F0))
              (f64.mul (f64.load offset=64 (local.get $base)) (local.get $F1)))
            (f64.mul (f64.load offset=112 (local.get $base)) (local.get $F2))))
        (local.set $out2
          (f64.add
            (f64.add
              (f64.mul (f64.load offset=32 (local.get $base)) (local.get $F0))
              (f64.mul (f64.load offset=80 (local.get $base)) (local.get $F1)))
            (f64.mul (f64.load offset=128 (local.get $base)) (local.get $F2))))
        (local.set $addr (i32.load offset=8 (local.get $io)))
        (f64.store (local.get $addr) (f64.add (f64.load (local.get $addr)) (local.get $out0)))
        (f64.store offset=8 (local.get $addr) (f64.add (f64.load offset=8 (local.get $addr)) (local.get $out1)))
        (f64.store offset=16 (local.get $addr) (f64.add (f64.load offset=16 (local.get $addr)) (local.get $out2)))
        ;; node 3: F = J·kk in the element frame, out = Rᵀ·F, df[node] += out
        (local.set $al (f64.load offset=288 (local.get $base)))
        (local.set $be (f64.load offset=304 (local.get $base)))
        (local.set $ga (f64.load offset=320 (local.get $base)))
        (local.set $F0
          (f64.add
            (f64.add (f64.mul (local.get $al) (local.get $kk0)) (f64.mul (local.get $be) (local.get $kk3)))
            (f64.mul (local.get $ga) (local.get $kk5))))
        (local.set $F1
          (f64.add
            (f64.add (f64.mul (local.get $be) (local.get $kk1)) (f64.mul (local.get $al) (local.get $kk3)))
            (f64.mul (local.get $ga) (local.get $kk4))))
        (local.set $F2
          (f64.add
            (f64.add (f64.mul (local.get $ga) (local.get $kk2)) (f64.mul (local.get $be) (local.get $kk4)))
            (f64.mul (local.get $al) (local.get $kk5))))
        (local.set $out0
          (f64.add
            (f64.add
              (f64.mul (f64.load (local.get $base)) (local.get $F0))
              (f64.mul (f64.load offset=48 (local.get $base)) (local.get $F1)))
            (f64.mul (f64.load offset=96 (local.get $base)) (local.get $F2))))
        (local.set $out1
          (f64.add
            (f64.add
              (f64.mul (f64.load offset=16 (local.get $base)) (local.get $F0))
              (f64.mul (f64.load offset=64 (local.get $base)) (local.get $F1)))
            (f64.mul (f64.load offset=112 (local.get $base)) (local.get $F2))))
        (local.set $out2
          (f64.add
            (f64.add
              (f64.mul (f64.load offset=32 (local.get $base)) (local.get $F0))
              (f64.mul (f64.load offset=80 (local.get $base)) (local.get $F1)))
            (f64.mul (f64.load offset=128 (local.get $base)) (local.get $F2))))
        (local.set $addr (i32.load offset=12 (local.get $io)))
        (f64.store (local.get $addr) (f64.add (f64.load (local.get $addr)) (local.get $out0)))
        (f64.store offset=8 (local.get $addr) (f64.add (f64.load offset=8 (local.get $addr)) (local.get $out1)))
        (f64.store offset=16 (local.get $addr) (f64.add (f64.load offset=16 (local.get $addr)) (local.get $out2)))
        (local.set $it (i32.add (local.get $it) (i32.const 1)))
        (br $element))))

  ;; tetF2: element pairs p0 … p1−1, f64x2, with the scratch area
  (func $tetF2 (export "tetF2") (param $inIdx i32) (param $elem i32) (param $rest i32) (param $delta i32) (param $from i32) (param $to i32) (param $scratch i32)
    (local $it i32) (local $base i32) (local $rb i32) (local $ii i32) (local $addr i32)
    (local $zero v128) (local $one v128) (local $addr1 i32) (local $xy0 v128) (local $xy1 v128) (local $ax v128)
    (local $ay v128) (local $az v128) (local $bx v128) (local $by v128) (local $bz v128) (local $cx v128)
    (local $cy v128) (local $cz v128) (local $dx v128) (local $dy v128) (local $dz v128) (local $ex v128)
    (local $ey v128) (local $ez v128) (local $invX v128) (local $yx v128) (local $yy v128) (local $yz v128)
    (local $zx v128) (local $zy v128) (local $zz v128) (local $invZ v128) (local $R3 v128) (local $R4 v128)
    (local $R5 v128) (local $F0 v128) (local $F1 v128) (local $F2 v128) (local $F3 v128) (local $F6 v128)
    (local $F7 v128) (local $F9 v128) (local $F10 v128) (local $F11 v128) (local $D3 v128) (local $D6 v128)
    (local $D7 v128) (local $D9 v128) (local $D10 v128) (local $D11 v128) (local $al v128) (local $be v128)
    (local $ga v128) (local $s0 v128) (local $s1 v128) (local $s2 v128) (local $s3 v128) (local $s4 v128)
    (local $s5 v128) (local $A v128) (local $B v128) (local $C v128) (local $k0 v128) (local $k1 v128)
    (local $k2 v128) (local $k3 v128) (local $k4 v128) (local $k5 v128) (local $Rm0 v128) (local $Rm1 v128)
    (local $Rm2 v128) (local $Rm3 v128) (local $Rm4 v128) (local $Rm5 v128) (local $Rm6 v128) (local $Rm7 v128)
    (local $Rm8 v128) (local $out0 v128) (local $out1 v128) (local $out2 v128) (local $fx0 v128) (local $fy0 v128)
    (local $fz0 v128) (local $fx1 v128) (local $fy1 v128) (local $fz1 v128) (local $fx2 v128) (local $fy2 v128)
    (local $fz2 v128) (local $fx3 v128) (local $fy3 v128) (local $fz3 v128)
    (local.set $zero (f64x2.splat (f64.const 0)))
    (local.set $one (f64x2.splat (f64.const 1)))
    (local.set $it (local.get $from))
    (block $done
      (loop $element
        (br_if $done (i32.ge_u (local.get $it) (local.get $to)))
        ;; base = elem + it·384, rb = rest + it·96, ii = inIdx + it·32
        (local.set $base (i32.add (local.get $elem) (i32.mul (local.get $it) (i32.const 384))))
        (local.set $rb (i32.add (local.get $rest) (i32.mul (local.get $it) (i32.const 96))))
        (local.set $ii (i32.add (local.get $inIdx) (i32.shl (local.get $it) (i32.const 5))))
        ;; node a’s position (both elements’, per coordinate)
        (local.set $xy0 (v128.load (local.tee $addr (i32.load (local.get $ii)))))
        (local.set $xy1 (v128.load (local.tee $addr1 (i32.load offset=16 (local.get $ii)))))
        (local.set $ax (i8x16.shuffle 0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23 (local.get $xy0) (local.get $xy1)))
        (local.set $ay
          (i8x16.shuffle 8 9 10 11 12 13 14 15 24 25 26 27 28 29 30 31 (local.get $xy0) (local.get $xy1)))
        (local.set $az (v128.load64_zero offset=16 (local.get $addr)))
        (local.set $az (v128.load64_lane offset=16 1 (local.get $addr1) (local.get $az)))
        ;; node b’s position (both elements’, per coordinate)
        (local.set $xy0 (v128.load (local.tee $addr (i32.load offset=4 (local.get $ii)))))
        (local.set $xy1 (v128.load (local.tee $addr1 (i32.load offset=20 (local.get $ii)))))
        (local.set $bx (i8x16.shuffle 0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23 (local.get $xy0) (local.get $xy1)))
        (local.set $by
          (i8x16.shuffle 8 9 10 11 12 13 14 15 24 25 26 27 28 29 30 31 (local.get $xy0) (local.get $xy1)))
        (local.set $bz (v128.load64_zero offset=16 (local.get $addr)))
        (local.set $bz (v128.load64_lane offset=16 1 (local.get $addr1) (local.get $bz)))
        ;; node c’s position (both elements’, per coordinate)
        (local.set $xy0 (v128.load (local.tee $addr (i32.load offset=8 (local.get $ii)))))
        (local.set $xy1 (v128.load (local.tee $addr1 (i32.load offset=24 (local.get $ii)))))
        (local.set $cx (i8x16.shuffle 0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23 (local.get $xy0) (local.get $xy1)))
        (local.set $cy
          (i8x16.shuffle 8 9 10 11 12 13 14 15 24 25 26 27 28 29 30 31 (local.get $xy0) (local.get $xy1)))
        (local.set $cz (v128.load64_zero offset=16 (local.get $addr)))
        (local.set $cz (v128.load64_lane offset=16 1 (local.get $addr1) (local.get $cz)))
        ;; node d’s position (both elements’, per coordinate)
        (local.set $xy0 (v128.load (local.tee $addr (i32.load offset=12 (local.get $ii)))))
        (local.set $xy1 (v128.load (local.tee $addr1 (i32.load offset=28 (local.get $ii)))))
        (local.set $dx (i8x16.shuffle 0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23 (local.get $xy0) (local.get $xy1)))
        (local.set $dy
          (i8x16.shuffle 8 9 10 11 12 13 14 15 24 25 26 27 28 29 30 31 (local.get $xy0) (local.get $xy1)))
        (local.set $dz (v128.load64_zero offset=16 (local.get $addr)))
        (local.set $dz (v128.load64_lane offset=16 1 (local.get $addr1) (local.get $dz)))
        ;; x̂ = (b − a)/|b − a|
        (local.set $ex (f64x2.sub (local.get $bx) (local.get $ax)))
        (local.set $ey (f64x2.sub (local.get $by) (local.get $ay)))
        (local.set $ez (f64x2.sub (local.get $bz) (local.get $az)))
        (local.set $invX
          (f64x2.div
            (local.get $one)
            (f64x2.sqrt
              (f64x2.add
                (f64x2.add (f64x2.mul (local.get $ex) (local.get $ex)) (f64x2.mul (local.get $ey) (local.get $ey)))
                (f64x2.mul (local.get $ez) (local.get $ez))))))
        (local.set $ex (f64x2.mul (local.get $ex) (local.get $invX)))
        (local.set $ey (f64x2.mul (local.get $ey) (local.get $invX)))
        (local.set $ez (f64x2.mul (local.get $ez) (local.get $invX)))
        ;; c − a; ẑ = x̂ × (c − a), normalized; ŷ = ẑ × x̂ (R3, R4, R5)
        (local.set $yx (f64x2.sub (local.get $cx) (local.get $ax)))
        (local.set $yy (f64x2.sub (local.get $cy) (local.get $ay)))
        (local.set $yz (f64x2.sub (local.get $cz) (local.get $az)))
        (local.set $zx
          (f64x2.sub (f64x2.mul (local.get $ey) (local.get $yz)) (f64x2.mul (local.get $ez) (local.get $yy))))
        (local.set $zy
          (f64x2.sub (f64x2.mul (local.get $ez) (local.get $yx)) (f64x2.mul (local.get $ex) (local.get $yz))))
        (local.set $zz
          (f64x2.sub (f64x2.mul (local.get $ex) (local.get $yy)) (f64x2.mul (local.get $ey) (local.get $yx))))
        (local.set $invZ
          (f64x2.div
            (local.get $one)
            (f64x2.sqrt
              (f64x2.add
                (f64x2.add (f64x2.mul (local.get $zx) (local.get $zx)) (f64x2.mul (local.get $zy) (local.get $zy)))
                (f64x2.mul (local.get $zz) (local.get $zz))))))
        (local.set $zx (f64x2.mul (local.get $zx) (local.get $invZ)))
        (local.set $zy (f64x2.mul (local.get $zy) (local.get $invZ)))
        (local.set $zz (f64x2.mul (local.get $zz) (local.get $invZ)))
        (local.set $R3
          (f64x2.sub (f64x2.mul (local.get $zy) (local.get $ez)) (f64x2.mul (local.get $zz) (local.get $ey))))
        (local.set $R4
          (f64x2.sub (f64x2.mul (local.get $zz) (local.get $ex)) (f64x2.mul (local.get $zx) (local.get $ez))))
        (local.set $R5
          (f64x2.sub (f64x2.mul (local.get $zx) (local.get $ey)) (f64x2.mul (local.get $zy) (local.get $ex))))
        ;; R into the element array (the product’s fields 0–8; copyRotations reads it there)
        (v128.store (local.get $base) (local.get $ex))
        (v128.store offset=16 (local.get $base) (local.get $ey))
        (v128.store offset=32 (local.get $base) (local.get $ez))
        (v128.store offset=48 (local.get $base) (local.get $R3))
        (v128.store offset=64 (local.get $base) (local.get $R4))
        (v128.store offset=80 (local.get $base) (local.get $R5))
        (v128.store offset=96 (local.get $base) (local.get $zx))
        (v128.store offset=112 (local.get $base) (local.get $zy))
        (v128.store offset=128 (local.get $base) (local.get $zz))
        ;; R·x per node (the components D needs), then D = R₀X − R·x from node a (R₀X: the rest components)
        (local.set $F0
          (f64x2.add
            (f64x2.add (f64x2.mul (local.get $ex) (local.get $ax)) (f64x2.mul (local.get $ey) (local.get $ay)))
            (f64x2.mul (local.get $ez) (local.get $az))))
        (local.set $F1
          (f64x2.add
            (f64x2.add (f64x2.mul (local.get $R3) (local.get $ax)) (f64x2.mul (local.get $R4) (local.get $ay)))
            (f64x2.mul (local.get $R5) (local.get $az))))
        (local.set $F2
          (f64x2.add
            (f64x2.add (f64x2.mul (local.get $zx) (local.get $ax)) (f64x2.mul (local.get $zy) (local.get $ay)))
            (f64x2.mul (local.get $zz) (local.get $az))))
        (local.set $F3
          (f64x2.add
            (f64x2.add (f64x2.mul (local.get $ex) (local.get $bx)) (f64x2.mul (local.get $ey) (local.get $by)))
            (f64x2.mul (local.get $ez) (local.get $bz))))
        (local.set $F6
          (f64x2.add
            (f64x2.add (f64x2.mul (local.get $ex) (local.get $cx)) (f64x2.mul (local.get $ey) (local.get $cy)))
            (f64x2.mul (local.get $ez) (local.get $cz))))
        (local.set $F7
          (f64x2.add
            (f64x2.add (f64x2.mul (local.get $R3) (local.get $cx)) (f64x2.mul (local.get $R4) (local.get $cy)))
            (f64x2.mul (local.get $R5) (local.get $cz))))
        (local.set $F9
          (f64x2.add
            (f64x2.add (f64x2.mul (local.get $ex) (local.get $dx)) (f64x2.mul (local.get $ey) (local.get $dy)))
            (f64x2.mul (local.get $ez) (local.get $dz))))
        (local.set $F10
          (f64x2.add
            (f64x2.add (f64x2.mul (local.get $R3) (local.get $dx)) (f64x2.mul (local.get $R4) (local.get $dy)))
            (f64x2.mul (local.get $R5) (local.get $dz))))
        (local.set $F11
          (f64x2.add
            (f64x2.add (f64x2.mul (local.get $zx) (local.get $dx)) (f64x2.mul (local.get $zy) (local.get $dy)))
            (f64x2.mul (local.get $zz) (local.get $dz))))
        (local.set $D3 (f64x2.sub (v128.load (local.get $rb)) (f64x2.sub (local.get $F3) (local.get $F0))))
        (local.set $D6 (f64x2.sub (v128.load offset=16 (local.get $rb)) (f64x2.sub (local.get $F6) (local.get $F0))))
        (local.set $D7 (f64x2.sub (v128.load offset=32 (local.get $rb)) (f64x2.sub (local.get $F7) (local.get $F1))))
        (local.set $D9 (f64x2.sub (v128.load offset=48 (local.get $rb)) (f64x2.sub (local.get $F9) (local.get $F0))))
        (local.set $D10
          (f64x2.sub (v128.load offset=64 (local.get $rb)) (f64x2.sub (local.get $F10) (local.get $F1))))
        (local.set $D11
          (f64x2.sub (v128.load offset=80 (local.get $rb)) (f64x2.sub (local.get $F11) (local.get $F2))))
        ;; strain = Jᵀ·D: elementForce’s sums from 0, node by node (D’s structural zeros included: x·0 and 0 + x decide the sign of a zero)
        (local.set $s0 (local.get $zero))
        (local.set $s1 (local.get $zero))
        (local.set $s2 (local.get $zero))
        (local.set $s3 (local.get $zero))
        (local.set $s4 (local.get $zero))
        (local.set $s5 (local.get $zero))
        (local.set $al (v128.load offset=144 (local.get $base)))
        (local.set $be (v128.load offset=160 (local.get $base)))
        (local.set $ga (v128.load offset=176 (local.get $base)))
        (local.set $s0 (f64x2.add (local.get $s0) (f64x2.mul (local.get $al) (local.get $zero))))
        (local.set $s1 (f64x2.add (local.get $s1) (f64x2.mul (local.get $be) (local.get $zero))))
        (local.set $s2 (f64x2.add (local.get $s2) (f64x2.mul (local.get $ga) (local.get $zero))))
        (local.set $s3
          (f64x2.add
            (local.get $s3)
            (f64x2.add (f64x2.mul (local.get $be) (local.get $zero)) (f64x2.mul (local.get $al) (local.get $zero)))))
        (local.set $s4
          (f64x2.add
            (local.get $s4)
            (f64x2.add (f64x2.mul (local.get $ga) (local.get $zero)) (f64x2.mul (local.get $be) (local.get $zero)))))
        (local.set $s5
          (f64x2.add
            (local.get $s5)
            (f64x2.add (f64x2.mul (local.get $ga) (local.get $zero)) (f64x2.mul (local.get $al) (local.get $zero)))))
        (v128.store (local.get $scratch) (local.get $s0))
        (v128.store offset=16 (local.get $scratch) (local.get $s1))
        (v128.store offset=32 (local.get $scratch) (local.get $s2))
        (v128.store offset=48 (local.get $scratch) (local.get $s3))
        (v128.store offset=64 (local.get $scratch) (local.get $s4))
        (v128.store offset=80 (local.get $scratch) (local.get $s5))
        (local.set $al (v128.load offset=192 (local.get $base)))
        (local.set $be (v128.load offset=208 (local.get $base)))
        (local.set $ga (v128.load offset=224 (local.get $base)))
        (local.set $s0 (f64x2.add (local.get $s0) (f64x2.mul (local.get $al) (local.get $D3))))
        (local.set $s1 (f64x2.add (local.get $s1) (f64x2.mul (local.get $be) (local.get $zero))))
        (local.set $s2 (f64x2.add (local.get $s2) (f64x2.mul (local.get $ga) (local.get $zero))))
        (local.set $s3
          (f64x2.add
            (local.get $s3)
            (f64x2.add (f64x2.mul (local.get $be) (local.get $D3)) (f64x2.mul (local.get $al) (local.get $zero)))))
        (local.set $s4
          (f64x2.add
            (local.get $s4)
            (f64x2.add (f64x2.mul (local.get $ga) (local.get $zero)) (f64x2.mul (local.get $be) (local.get $zero)))))
        (local.set $s5
          (f64x2.add
            (local.get $s5)
            (f64x2.add (f64x2.mul (local.get $ga) (local.get $D3)) (f64x2.mul (local.get $al) (local.get $zero)))))
        (v128.store (local.get $scratch) (local.get $s0))
        (v128.store offset=16 (local.get $scratch) (local.get $s1))
        (v128.store offset=32 (local.get $scratch) (local.get $s2))
        (v128.store offset=48 (local.get $scratch) (local.get $s3))
        (v128.store offset=64 (local.get $scratch) (local.get $s4))
        (v128.store offset=80 (local.get $scratch) (local.get $s5))
        (local.set $al (v128.load offset=240 (local.get $base)))
        (local.set $be (v128.load offset=256 (local.get $base)))
        (local.set $ga (v128.load offset=272 (local.get $base)))
        (local.set $s0 (f64x2.add (local.get $s0) (f64x2.mul (local.get $al) (local.get $D6))))
        (local.set $s1 (f64x2.add (local.get $s1) (f64x2.mul (local.get $be) (local.get $D7))))
        (local.set $s2 (f64x2.add (local.get $s2) (f64x2.mul (local.get $ga) (local.get $zero))))
        (local.set $s3
          (f64x2.add
            (local.get $s3)
            (f64x2.add (f64x2.mul (local.get $be) (local.get $D6)) (f64x2.mul (local.get $al) (local.get $D7)))))
        (local.set $s4
          (f64x2.add
            (local.get $s4)
            (f64x2.add (f64x2.mul (local.get $ga) (local.get $D7)) (f64x2.mul (local.get $be) (local.get $zero)))))
        (local.set $s5
          (f64x2.add
            (local.get $s5)
            (f64x2.add (f64x2.mul (local.get $ga) (local.get $D6)) (f64x2.mul (local.get $al) (local.get $zero)))))
        (v128.store (local.get $scratch) (local.get $s0))
        (v128.store offset=16 (local.get $scratch) (local.get $s1))
        (v128.store offset=32 (local.get $scratch) (local.get $s2))
        (v128.store offset=48 (local.get $scratch) (local.get $s3))
        (v128.store offset=64 (local.get $scratch) (local.get $s4))
        (v128.store offset=80 (local.get $scratch) (local.get $s5))
        (local.set $al (v128.load offset=288 (local.get $base)))
        (local.set $be (v128.load offset=304 (local.get $base)))
        (local.set $ga (v128.load offset=320 (local.get $base)))
        (local.set $s0 (f64x2.add (local.get $s0) (f64x2.mul (local.get $al) (local.get $D9))))
        (local.set $s1 (f64x2.add (local.get $s1) (f64x2.mul (local.get $be) (local.get $D10))))
        (local.set $s2 (f64x2.add (local.get $s2) (f64x2.mul (local.get $ga) (local.get $D11))))
        (local.set $s3
          (f64x2.add
            (local.get $s3)
            (f64x2.add (f64x2.mul (local.get $be) (local.get $D9)) (f64x2.mul (local.get $al) (local.get $D10)))))
        (local.set $s4
          (f64x2.add
            (local.get $s4)
            (f64x2.add (f64x2.mul (local.get $ga) (local.get $D10)) (f64x2.mul (local.get $be) (local.get $D11)))))
        (local.set $s5
          (f64x2.add
            (local.get $s5)
            (f64x2.add (f64x2.mul (local.get $ga) (local.get $D9)) (f64x2.mul (local.get $al) (local.get $D11)))))
        (v128.store (local.get $scratch) (local.get $s0))
        (v128.store offset=16 (local.get $scratch) (local.get $s1))
        (v128.store offset=32 (local.get $scratch) (local.get $s2))
        (v128.store offset=48 (local.get $scratch) (local.get $s3))
        (v128.store offset=64 (local.get $scratch) (local.get $s4))
        (v128.store offset=80 (local.get $scratch) (local.get $s5))
        ;; stress = K·strain
        (local.set $A (v128.load offset=336 (local.get $base)))
        (local.set $B (v128.load offset=352 (local.get $base)))
        (local.set $C (v128.load offset=368 (local.get $base)))
        (local.set $k0
          (f64x2.add
            (f64x2.add (f64x2.mul (local.get $A) (local.get $s0)) (f64x2.mul (local.get $B) (local.get $s1)))
            (f64x2.mul (local.get $B) (local.get $s2))))
        (local.set $k1
          (f64x2.add
            (f64x2.add (f64x2.mul (local.get $B) (local.get $s0)) (f64x2.mul (local.get $A) (local.get $s1)))
            (f64x2.mul (local.get $B) (local.get $s2))))
        (local.set $k2
          (f64x2.add
            (f64x2.add (f64x2.mul (local.get $B) (local.get $s0)) (f64x2.mul (local.get $B) (local.get $s1)))
            (f64x2.mul (local.get $A) (local.get $s2))))
        (local.set $k3 (f64x2.mul (local.get $C) (local.get $s3)))
        (local.set $k4 (f64x2.mul (local.get $C) (local.get $s4)))
        (local.set $k5 (f64x2.mul (local.get $C) (local.get $s5)))
        ;; node 0: F = J·stress, Rᵀ·F (R read back from the element array), f[node] += … at the position’s address + delta (the first element’s now, the second’s to the scratch area)
        (local.set $al (v128.load offset=144 (local.get $base)))
        (local.set $be (v128.load offset=160 (local.get $base)))
        (local.set $ga (v128.load offset=176 (local.get $base)))
        (local.set $fx0
          (f64x2.add
            (f64x2.add (f64x2.mul (local.get $al) (local.get $k0)) (f64x2.mul (local.get $be) (local.get $k3)))
            (f64x2.mul (local.get $ga) (local.get $k5))))
        (local.set $fy0
          (f64x2.add
            (f64x2.add (f64x2.mul (local.get $be) (local.get $k1)) (f64x2.mul (local.get $al) (local.get $k3)))
            (f64x2.mul (local.get $ga) (local.get $k4))))
        (local.set $fz0
          (f64x2.add
            (f64x2.add (f64x2.mul (local.get $ga) (local.get $k2)) (f64x2.mul (local.get $be) (local.get $k4)))
            (f64x2.mul (local.get $al) (local.get $k5))))
        (local.set $Rm0 (v128.load (local.get $base)))
        (local.set $Rm1 (v128.load offset=16 (local.get $base)))
        (local.set $Rm2 (v128.load offset=32 (local.get $base)))
        (local.set $Rm3 (v128.load offset=48 (local.get $base)))
        (local.set $Rm4 (v128.load offset=64 (local.get $base)))
        (local.set $Rm5 (v128.load offset=80 (local.get $base)))
        (local.set $Rm6 (v128.load offset=96 (local.get $base)))
        (local.set $Rm7 (v128.load offset=112 (local.get $base)))
        (local.set $Rm8 (v128.load offset=128 (local.get $base)))
        (local.set $out0
          (f64x2.add
            (f64x2.add (f64x2.mul (local.get $Rm0) (local.get $fx0)) (f64x2.mul (local.get $Rm3) (local.get $fy0)))
            (f64x2.mul (local.get $Rm6) (local.get $fz0))))
        (local.set $out1
          (f64x2.add
            (f64x2.add (f64x2.mul (local.get $Rm1) (local.get $fx0)) (f64x2.mul (local.get $Rm4) (local.get $fy0)))
            (f64x2.mul (local.get $Rm7) (local.get $fz0))))
        (local.set $out2
          (f64x2.add
            (f64x2.add (f64x2.mul (local.get $Rm2) (local.get $fx0)) (f64x2.mul (local.get $Rm5) (local.get $fy0)))
            (f64x2.mul (local.get $Rm8) (local.get $fz0))))
        (local.set $addr (i32.add (i32.load (local.get $ii)) (local.get $delta)))
        (v128.store
          (local.get $addr)
          (f64x2.add
            (v128.load (local.get $addr))
            (i8x16.shuffle 0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23 (local.get $out0) (local.get $out1))))
        (f64.store offset=16
          (local.get $addr)
          (f64.add (f64.load offset=16 (local.get $addr)) (f64x2.extract_lane 0 (local.get $out2))))
        (v128.store
          (local.get $scratch)
          (i8x16.shuffle 8 9 10 11 12 13 14 15 24 25 26 27 28 29 30 31 (local.get $out0) (local.get $out1)))
        (f64.store offset=64 (local.get $scratch) (f64x2.extract_lane 1 (local.get $out2)))
        ;; node 1: F = J·stress, Rᵀ·F (R read back from the element array), f[node] += … at the position’s address + delta (the first element’s now, the second’s to the scratch area)
        (local.set $al (v128.load offset=192 (local.get $base)))
        (local.set $be (v128.load offset=208 (local.get $base)))
        (local.set $ga (v128.load offset=224 (local.get $base)))
        (local.set $fx1
          (f64x2.add
            (f64x2.add (f64x2.mul (local.get $al) (local.get $k0)) (f64x2.mul (local.get $be) (local.get $k3)))
            (f64x2.mul (local.get $ga) (local.get $k5))))
        (local.set $fy1
          (f64x2.add
            (f64x2.add (f64x2.mul (local.get $be) (local.get $k1)) (f64x2.mul (local.get $al) (local.get $k3)))
            (f64x2.mul (local.get $ga) (local.get $k4))))
        (local.set $fz1
          (f64x2.add
            (f64x2.add (f64x2.mul (local.get $ga) (local.get $k2)) (f64x2.mul (local.get $be) (local.get $k4)))
            (f64x2.mul (local.get $al) (local.get $k5))))
        (local.set $Rm0 (v128.load (local.get $base)))
        (local.set $Rm1 (v128.load offset=16 (local.get $base)))
        (local.set $Rm2 (v128.load offset=32 (local.get $base)))
        (local.set $Rm3 (v128.load offset=48 (local.get $base)))
        (local.set $Rm4 (v128.load offset=64 (local.get $base)))
        (local.set $Rm5 (v128.load offset=80 (local.get $base)))
        (local.set $Rm6 (v128.load offset=96 (local.get $base)))
        (local.set $Rm7 (v128.load offset=112 (local.get $base)))
        (local.set $Rm8 (v128.load offset=128 (local.get $base)))
        (local.set $out0
          (f64x2.add
            (f64x2.add (f64x2.mul (local.get $Rm0) (local.get $fx1)) (f64x2.mul (local.get $Rm3) (local.get $fy1)))
            (f64x2.mul (local.get $Rm6) (local.get $fz1))))
        (local.set $out1
          (f64x2.add
            (f64x2.add (f64x2.mul (local.get $Rm1) (local.get $fx1)) (f64x2.mul (local.get $Rm4) (local.get $fy1)))
            (f64x2.mul (local.get $Rm7) (local.get $fz1))))
        (local.set $out2
          (f64x2.add
            (f64x2.add (f64x2.mul (local.get $Rm2) (local.get $fx1)) (f64x2.mul (local.get $Rm5) (local.get $fy1)))
            (f64x2.mul (local.get $Rm8) (local.get $fz1))))
        (local.set $addr (i32.add (i32.load offset=4 (local.get $ii)) (local.get $delta)))
        (v128.store
          (local.get $addr)
          (f64x2.add
            (v128.load (local.get $addr))
            (i8x16.shuffle 0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23 (local.get $out0) (local.get $out1))))
        (f64.store offset=16
          (local.get $addr)
          (f64.add (f64.load offset=16 (local.get $addr)) (f64x2.extract_lane 0 (local.get $out2))))
        (v128.store offset=16
          (local.get $scratch)
          (i8x16.shuffle 8 9 10 11 12 13 14 15 24 25 26 27 28 29 30 31 (local.get $out0) (local.get $out1)))
        (f64.store offset=72 (local.get $scratch) (f64x2.extract_lane 1 (local.get $out2)))
        ;; node 2: F = J·stress, Rᵀ·F (R read back from the element array), f[node] += … at the position’s address + delta (the first element’s now, the second’s to the scratch area)
        (local.set $al (v128.load offset=240 (local.get $base)))
        (local.set $be (v128.load offset=256 (local.get $base)))
        (local.set $ga (v128.load offset=272 (local.get $base)))
        (local.set $fx2
          (f64x2.add
            (f64x2.add (f64x2.mul (local.get $al) (local.get $k0)) (f64x2.mul (local.get $be) (local.get $k3)))
            (f64x2.mul (local.get $ga) (local.get $k5))))
        (local.set $fy2
          (f64x2.add
            (f64x2.add (f64x2.mul (local.get $be) (local.get $k1)) (f64x2.mul (local.get $al) (local.get $k3)))
            (f64x2.mul (local.get $ga) (local.get $k4))))
        (local.set $fz2
          (f64x2.add
            (f64x2.add (f64x2.mul (local.get $ga) (local.get $k2)) (f64x2.mul (local.get $be) (local.get $k4)))
            (f64x2.mul (local.get $al) (local.get $k5))))
        (local.set $Rm0 (v128.load (local.get $base)))
        (local.set $Rm1 (v128.load offset=16 (local.get $base)))
        (local.set $Rm2 (v128.load offset=32 (local.get $base)))
        (local.set $Rm3 (v128.load offset=48 (local.get $base)))
        (local.set $Rm4 (v128.load offset=64 (local.get $base)))
        (local.set $Rm5 (v128.load offset=80 (local.get $base)))
        (local.set $Rm6 (v128.load offset=96 (local.get $base)))
        (local.set $Rm7 (v128.load offset=112 (local.get $base)))
        (local.set $Rm8 (v128.load offset=128 (local.get $base)))
        (local.set $out0
          (f64x2.add
            (f64x2.add (f64x2.mul (local.get $Rm0) (local.get $fx2)) (f64x2.mul (local.get $Rm3) (local.get $fy2)))
            (f64x2.mul (local.get $Rm6) (local.get $fz2))))
        (local.set $out1
          (f64x2.add
            (f64x2.add (f64x2.mul (local.get $Rm1) (local.get $fx2)) (f64x2.mul (local.get $Rm4) (local.get $fy2)))
            (f64x2.mul (local.get $Rm7) (local.get $fz2))))
        (local.set $out2
          (f64x2.add
            (f64x2.add (f64x2.mul (local.get $Rm2) (local.get $fx2)) (f64x2.mul (local.get $Rm5) (local.get $fy2)))
            (f64x2.mul (local.get $Rm8) (local.get $fz2))))
        (local.set $addr (i32.add (i32.load offset=8 (local.get $ii)) (local.get $delta)))
        (v128.store
          (local.get $addr)
          (f64x2.add
            (v128.load (local.get $addr))
            (i8x16.shuffle 0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23 (local.get $out0) (local.get $out1))))
        (f64.store offset=16
          (local.get $addr)
          (f64.add (f64.load offset=16 (local.get $addr)) (f64x2.extract_lane 0 (local.get $out2))))
        (v128.store offset=32
          (local.get $scratch)
          (i8x16.shuffle 8 9 10 11 12 13 14 15 24 25 26 27 28 29 30 31 (local.get $out0) (local.get $out1)))
        (f64.store offset=80 (local.get $scratch) (f64x2.extract_lane 1 (local.get $out2)))
        ;; node 3: F = J·stress, Rᵀ·F (R read back from the element array), f[node] += … at the position’s address + delta (the first element’s now, the second’s to the scratch area)
        (local.set $al (v128.load offset=288 (local.get $base)))
        (local.set $be (v128.load offset=304 (local.get $base)))
        (local.set $ga (v128.load offset=320 (local.get $base)))
        (local.set $fx3
          (f64x2.add
            (f64x2.add (f64x2.mul (local.get $al) (local.get $k0)) (f64x2.mul (local.get $be) (local.get $k3)))
            (f64x2.mul (local.get $ga) (local.get $k5))))
        (local.set $fy3
          (f64x2.add
            (f64x2.add (f64x2.mul (local.get $be) (local.get $k1)) (f64x2.mul (local.get $al) (local.get $k3)))
            (f64x2.mul (local.get $ga) (local.get $k4))))
        (local.set $fz3
          (f64x2.add
            (f64x2.add (f64x2.mul (local.get $ga) (local.get $k2)) (f64x2.mul (local.get $be) (local.get $k4)))
            (f64x2.mul (local.get $al) (local.get $k5))))
        (local.set $Rm0 (v128.load (local.get $base)))
        (local.set $Rm1 (v128.load offset=16 (local.get $base)))
        (local.set $Rm2 (v128.load offset=32 (local.get $base)))
        (local.set $Rm3 (v128.load offset=48 (local.get $base)))
        (local.set $Rm4 (v128.load offset=64 (local.get $base)))
        (local.set $Rm5 (v128.load offset=80 (local.get $base)))
        (local.set $Rm6 (v128.load offset=96 (local.get $base)))
        (local.set $Rm7 (v128.load offset=112 (local.get $base)))
        (local.set $Rm8 (v128.load offset=128 (local.get $base)))
        (local.set $out0
          (f64x2.add
            (f64x2.add (f64x2.mul (local.get $Rm0) (local.get $fx3)) (f64x2.mul (local.get $Rm3) (local.get $fy3)))
            (f64x2.mul (local.get $Rm6) (local.get $fz3))))
        (local.set $out1
          (f64x2.add
            (f64x2.add (f64x2.mul (local.get $Rm1) (local.get $fx3)) (f64x2.mul (local.get $Rm4) (local.get $fy3)))
            (f64x2.mul (local.get $Rm7) (local.get $fz3))))
        (local.set $out2
          (f64x2.add
            (f64x2.add (f64x2.mul (local.get $Rm2) (local.get $fx3)) (f64x2.mul (local.get $Rm5) (local.get $fy3)))
            (f64x2.mul (local.get $Rm8) (local.get $fz3))))
        (local.set $addr (i32.add (i32.load offset=12 (local.get $ii)) (local.get $delta)))
        (v128.store
          (local.get $addr)
          (f64x2.add
            (v128.load (local.get $addr))
            (i8x16.shuffle 0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23 (local.get $out0) (local.get $out1))))
        (f64.store offset=16
          (local.get $addr)
          (f64.add (f64.load offset=16 (local.get $addr)) (f64x2.extract_lane 0 (local.get $out2))))
        (v128.store offset=48
          (local.get $scratch)
          (i8x16.shuffle 8 9 10 11 12 13 14 15 24 25 26 27 28 29 30 31 (local.get $out0) (local.get $out1)))
        (f64.store offset=88 (local.get $scratch) (f64x2.extract_lane 1 (local.get $out2)))
        ;; the second element’s node forces added to its 4 nodes
        (local.set $addr (i32.add (i32.load offset=16 (local.get $ii)) (local.get $delta)))
        (v128.store (local.get $addr) (f64x2.add (v128.load (local.get $addr)) (v128.load (local.get $scratch))))
        (f64.store offset=16
          (local.get $addr)
          (f64.add (f64.load offset=16 (local.get $addr)) (f64.load offset=64 (local.get $scratch))))
        (local.set $addr (i32.add (i32.load offset=20 (local.get $ii)) (local.get $delta)))
        (v128.store
          (local.get $addr)
          (f64x2.add (v128.load (local.get $addr)) (v128.load offset=16 (local.get $scratch))))
        (f64.store offset=16
          (local.get $addr)
          (f64.add (f64.load offset=16 (local.get $addr)) (f64.load offset=72 (local.get $scratch))))
        (local.set $addr (i32.add (i32.load offset=24 (local.get $ii)) (local.get $delta)))
        (v128.store
          (local.get $addr)
          (f64x2.add (v128.load (local.get $addr)) (v128.load offset=32 (local.get $scratch))))
        (f64.store offset=16
          (local.get $addr)
          (f64.add (f64.load offset=16 (local.get $addr)) (f64.load offset=80 (local.get $scratch))))
        (local.set $addr (i32.add (i32.load offset=28 (local.get $ii)) (local.get $delta)))
        (v128.store
          (local.get $addr)
          (f64x2.add (v128.load (local.get $addr)) (v128.load offset=48 (local.get $scratch))))
        (f64.store offset=16
          (local.get $addr)
          (f64.add (f64.load offset=16 (local.get $addr)) (f64.load offset=88 (local.get $scratch))))
        (local.set $it (i32.add (local.get $it) (i32.const 1)))
        (br $element))))

  ;; tetF1: single elements e0 … e1−1, scalar ($addr1 unused)
  (func $tetF1 (export "tetF1") (param $inIdx i32) (param $elem i32) (param $rest i32) (param $delta i32) (param $from i32) (param $to i32)
    (local $it i32) (local $base i32) (local $rb i32) (local $ii i32) (local $addr i32)
    (local $zero f64) (local $one f64) (local $addr1 i32) (local $ax f64) (local $ay f64) (local $az f64)
    (local $bx f64) (local $by f64) (local $bz f64) (local $cx f64) (local $cy f64) (local $cz f64) (local $dx f64)
    (local $dy f64) (local $dz f64) (local $ex f64) (local $ey f64) (local $ez f64) (local $invX f64) (local $yx f64)
    (local $yy f64) (local $yz f64) (local $zx f64) (local $zy f64) (local $zz f64) (local $invZ f64) (local $R3 f64)
    (local $R4 f64) (local $R5 f64) (local $F0 f64) (local $F1 f64) (local $F2 f64) (local $F3 f64) (local $F6 f64)
    (local $F7 f64) (local $F9 f64) (local $F10 f64) (local $F11 f64) (local $D3 f64) (local $D6 f64) (local $D7 f64)
    (local $D9 f64) (local $D10 f64) (local $D11 f64) (local $al f64) (local $be f64) (local $ga f64) (local $s0 f64)
    (local $s1 f64) (local $s2 f64) (local $s3 f64) (local $s4 f64) (local $s5 f64) (local $A f64) (local $B f64)
    (local $C f64) (local $k0 f64) (local $k1 f64) (local $k2 f64) (local $k3 f64) (local $k4 f64) (local $k5 f64)
    (local $Rm0 f64) (local $Rm1 f64) (local $Rm2 f64) (local $Rm3 f64) (local $Rm4 f64) (local $Rm5 f64)
    (local $Rm6 f64) (local $Rm7 f64) (local $Rm8 f64) (local $out0 f64) (local $out1 f64) (local $out2 f64)
    (local $fx0 f64) (local $fy0 f64) (local $fz0 f64) (local $fx1 f64) (local $fy1 f64) (local $fz1 f64)
    (local $fx2 f64) (local $fy2 f64) (local $fz2 f64) (local $fx3 f64) (local $fy3 f64) (local $fz3 f64)
    (local.set $zero (f64.const 0))
    (local.set $one (f64.const 1))
    (local.set $it (local.get $from))
    (block $done
      (loop $element
        (br_if $done (i32.ge_u (local.get $it) (local.get $to)))
        ;; lane (it & 1) of pair it >> 1; ii = inIdx + 16·it
        (local.set $base
          (i32.add
            (i32.add (local.get $elem) (i32.shl (i32.and (local.get $it) (i32.const 1)) (i32.const 3)))
            (i32.mul (i32.and (local.get $it) (i32.const -2)) (i32.const 192))))
        (local.set $rb
          (i32.add
            (i32.add (local.get $rest) (i32.shl (i32.and (local.get $it) (i32.const 1)) (i32.const 3)))
            (i32.mul (i32.and (local.get $it) (i32.const -2)) (i32.const 48))))
        (local.set $ii (i32.add (local.get $inIdx) (i32.shl (local.get $it) (i32.const 4))))
        ;; node a’s position
        (local.set $ax (f64.load (i32.load (local.get $ii))))
        (local.set $ay (f64.load offset=8 (i32.load (local.get $ii))))
        (local.set $az (f64.load offset=16 (i32.load (local.get $ii))))
        ;; node b’s position
        (local.set $bx (f64.load (i32.load offset=4 (local.get $ii))))
        (local.set $by (f64.load offset=8 (i32.load offset=4 (local.get $ii))))
        (local.set $bz (f64.load offset=16 (i32.load offset=4 (local.get $ii))))
        ;; node c’s position
        (local.set $cx (f64.load (i32.load offset=8 (local.get $ii))))
        (local.set $cy (f64.load offset=8 (i32.load offset=8 (local.get $ii))))
        (local.set $cz (f64.load offset=16 (i32.load offset=8 (local.get $ii))))
        ;; node d’s position
        (local.set $dx (f64.load (i32.load offset=12 (local.get $ii))))
        (local.set $dy (f64.load offset=8 (i32.load offset=12 (local.get $ii))))
        (local.set $dz (f64.load offset=16 (i32.load offset=12 (local.get $ii))))
        ;; x̂ = (b − a)/|b − a|
        (local.set $ex (f64.sub (local.get $bx) (local.get $ax)))
        (local.set $ey (f64.sub (local.get $by) (local.get $ay)))
        (local.set $ez (f64.sub (local.get $bz) (local.get $az)))
        (local.set $invX
          (f64.div
            (local.get $one)
            (f64.sqrt
              (f64.add
                (f64.add (f64.mul (local.get $ex) (local.get $ex)) (f64.mul (local.get $ey) (local.get $ey)))
                (f64.mul (local.get $ez) (local.get $ez))))))
        (local.set $ex (f64.mul (local.get $ex) (local.get $invX)))
        (local.set $ey (f64.mul (local.get $ey) (local.get $invX)))
        (local.set $ez (f64.mul (local.get $ez) (local.get $invX)))
        ;; c − a; ẑ = x̂ × (c − a), normalized; ŷ = ẑ × x̂ (R3, R4, R5)
        (local.set $yx (f64.sub (local.get $cx) (local.get $ax)))
        (local.set $yy (f64.sub (local.get $cy) (local.get $ay)))
        (local.set $yz (f64.sub (local.get $cz) (local.get $az)))
        (local.set $zx (f64.sub (f64.mul (local.get $ey) (local.get $yz)) (f64.mul (local.get $ez) (local.get $yy))))
        (local.set $zy (f64.sub (f64.mul (local.get $ez) (local.get $yx)) (f64.mul (local.get $ex) (local.get $yz))))
        (local.set $zz (f64.sub (f64.mul (local.get $ex) (local.get $yy)) (f64.mul (local.get $ey) (local.get $yx))))
        (local.set $invZ
          (f64.div
            (local.get $one)
            (f64.sqrt
              (f64.add
                (f64.add (f64.mul (local.get $zx) (local.get $zx)) (f64.mul (local.get $zy) (local.get $zy)))
                (f64.mul (local.get $zz) (local.get $zz))))))
        (local.set $zx (f64.mul (local.get $zx) (local.get $invZ)))
        (local.set $zy (f64.mul (local.get $zy) (local.get $invZ)))
        (local.set $zz (f64.mul (local.get $zz) (local.get $invZ)))
        (local.set $R3 (f64.sub (f64.mul (local.get $zy) (local.get $ez)) (f64.mul (local.get $zz) (local.get $ey))))
        (local.set $R4 (f64.sub (f64.mul (local.get $zz) (local.get $ex)) (f64.mul (local.get $zx) (local.get $ez))))
        (local.set $R5 (f64.sub (f64.mul (local.get $zx) (local.get $ey)) (f64.mul (local.get $zy) (local.get $ex))))
        ;; R into the element array (the product’s fields 0–8; copyRotations reads it there)
        (f64.store (local.get $base) (local.get $ex))
        (f64.store offset=16 (local.get $base) (local.get $ey))
        (f64.store offset=32 (local.get $base) (local.get $ez))
        (f64.store offset=48 (local.get $base) (local.get $R3))
        (f64.store offset=64 (local.get $base) (local.get $R4))
        (f64.store offset=80 (local.get $base) (local.get $R5))
        (f64.store offset=96 (local.get $base) (local.get $zx))
        (f64.store offset=112 (local.get $base) (local.get $zy))
        (f64.store offset=128 (local.get $base) (local.get $zz))
        ;; R·x per node (the components D needs), then D = R₀X − R·x from node a (R₀X: the rest components)
        (local.set $F0
          (f64.add
            (f64.add (f64.mul (local.get $ex) (local.get $ax)) (f64.mul (local.get $ey) (local.get $ay)))
            (f64.mul (local.get $ez) (local.get $az))))
        (local.set $F1
          (f64.add
            (f64.add (f64.mul (local.get $R3) (local.get $ax)) (f64.mul (local.get $R4) (local.get $ay)))
            (f64.mul (local.get $R5) (local.get $az))))
        (local.set $F2
          (f64.add
            (f64.add (f64.mul (local.get $zx) (local.get $ax)) (f64.mul (local.get $zy) (local.get $ay)))
            (f64.mul (local.get $zz) (local.get $az))))
        (local.set $F3
          (f64.add
            (f64.add (f64.mul (local.get $ex) (local.get $bx)) (f64.mul (local.get $ey) (local.get $by)))
            (f64.mul (local.get $ez) (local.get $bz))))
        (local.set $F6
          (f64.add
            (f64.add (f64.mul (local.get $ex) (local.get $cx)) (f64.mul (local.get $ey) (local.get $cy)))
            (f64.mul (local.get $ez) (local.get $cz))))
        (local.set $F7
          (f64.add
            (f64.add (f64.mul (local.get $R3) (local.get $cx)) (f64.mul (local.get $R4) (local.get $cy)))
            (f64.mul (local.get $R5) (local.get $cz))))
        (local.set $F9
          (f64.add
            (f64.add (f64.mul (local.get $ex) (local.get $dx)) (f64.mul (local.get $ey) (local.get $dy)))
            (f64.mul (local.get $ez) (local.get $dz))))
        (local.set $F10
          (f64.add
            (f64.add (f64.mul (local.get $R3) (local.get $dx)) (f64.mul (local.get $R4) (local.get $dy)))
            (f64.mul (local.get $R5) (local.get $dz))))
        (local.set $F11
          (f64.add
            (f64.add (f64.mul (local.get $zx) (local.get $dx)) (f64.mul (local.get $zy) (local.get $dy)))
            (f64.mul (local.get $zz) (local.get $dz))))
        (local.set $D3 (f64.sub (f64.load (local.get $rb)) (f64.sub (local.get $F3) (local.get $F0))))
        (local.set $D6 (f64.sub (f64.load offset=16 (local.get $rb)) (f64.sub (local.get $F6) (local.get $F0))))
        (local.set $D7 (f64.sub (f64.load offset=32 (local.get $rb)) (f64.sub (local.get $F7) (local.get $F1))))
        (local.set $D9 (f64.sub (f64.load offset=48 (local.get $rb)) (f64.sub (local.get $F9) (local.get $F0))))
        (local.set $D10 (f64.sub (f64.load offset=64 (local.get $rb)) (f64.sub (local.get $F10) (local.get $F1))))
        (local.set $D11 (f64.sub (f64.load offset=80 (local.get $rb)) (f64.sub (local.get $F11) (local.get $F2))))
        ;; strain = Jᵀ·D: elementForce’s sums from 0, node by node (D’s structural zeros included: x·0 and 0 + x decide the sign of a zero)
        (local.set $s0 (local.get $zero))
        (local.set $s1 (local.get $zero))
        (local.set $s2 (local.get $zero))
        (local.set $s3 (local.get $zero))
        (local.set $s4 (local.get $zero))
        (local.set $s5 (local.get $zero))
        (local.set $al (f64.load offset=144 (local.get $base)))
        (local.set $be (f64.load offset=160 (local.get $base)))
        (local.set $ga (f64.load offset=176 (local.get $base)))
        (local.set $s0 (f64.add (local.get $s0) (f64.mul (local.get $al) (local.get $zero))))
        (local.set $s1 (f64.add (local.get $s1) (f64.mul (local.get $be) (local.get $zero))))
        (local.set $s2 (f64.add (local.get $s2) (f64.mul (local.get $ga) (local.get $zero))))
        (local.set $s3
          (f64.add
            (local.get $s3)
            (f64.add (f64.mul (local.get $be) (local.get $zero)) (f64.mul (local.get $al) (local.get $zero)))))
        (local.set $s4
          (f64.add
            (local.get $s4)
            (f64.add (f64.mul (local.get $ga) (local.get $zero)) (f64.mul (local.get $be) (local.get $zero)))))
        (local.set $s5
          (f64.add
            (local.get $s5)
            (f64.add (f64.mul (local.get $ga) (local.get $zero)) (f64.mul (local.get $al) (local.get $zero)))))
        (local.set $al (f64.load offset=192 (local.get $base)))
        (local.set $be (f64.load offset=208 (local.get $base)))
        (local.set $ga (f64.load offset=224 (local.get $base)))
        (local.set $s0 (f64.add (local.get $s0) (f64.mul (local.get $al) (local.get $D3))))
        (local.set $s1 (f64.add (local.get $s1) (f64.mul (local.get $be) (local.get $zero))))
        (local.set $s2 (f64.add (local.get $s2) (f64.mul (local.get $ga) (local.get $zero))))
        (local.set $s3
          (f64.add
            (local.get $s3)
            (f64.add (f64.mul (local.get $be) (local.get $D3)) (f64.mul (local.get $al) (local.get $zero)))))
        (local.set $s4
          (f64.add
            (local.get $s4)
            (f64.add (f64.mul (local.get $ga) (local.get $zero)) (f64.mul (local.get $be) (local.get $zero)))))
        (local.set $s5
          (f64.add
            (local.get $s5)
            (f64.add (f64.mul (local.get $ga) (local.get $D3)) (f64.mul (local.get $al) (local.get $zero)))))
        (local.set $al (f64.load offset=240 (local.get $base)))
        (local.set $be (f64.load offset=256 (local.get $base)))
        (local.set $ga (f64.load offset=272 (local.get $base)))
        (local.set $s0 (f64.add (local.get $s0) (f64.mul (local.get $al) (local.get $D6))))
        (local.set $s1 (f64.add (local.get $s1) (f64.mul (local.get $be) (local.get $D7))))
        (local.set $s2 (f64.add (local.get $s2) (f64.mul (local.get $ga) (local.get $zero))))
        (local.set $s3
          (f64.add
            (local.get $s3)
            (f64.add (f64.mul (local.get $be) (local.get $D6)) (f64.mul (local.get $al) (local.get $D7)))))
        (local.set $s4
          (f64.add
            (local.get $s4)
            (f64.add (f64.mul (local.get $ga) (local.get $D7)) (f64.mul (local.get $be) (local.get $zero)))))
        (local.set $s5
          (f64.add
            (local.get $s5)
            (f64.add (f64.mul (local.get $ga) (local.get $D6)) (f64.mul (local.get $al) (local.get $zero)))))
        (local.set $al (f64.load offset=288 (local.get $base)))
        (local.set $be (f64.load offset=304 (local.get $base)))
        (local.set $ga (f64.load offset=320 (local.get $base)))
        (local.set $s0 (f64.add (local.get $s0) (f64.mul (local.get $al) (local.get $D9))))
        (local.set $s1 (f64.add (local.get $s1) (f64.mul (local.get $be) (local.get $D10))))
        (local.set $s2 (f64.add (local.get $s2) (f64.mul (local.get $ga) (local.get $D11))))
        (local.set $s3
          (f64.add
            (local.get $s3)
            (f64.add (f64.mul (local.get $be) (local.get $D9)) (f64.mul (local.get $al) (local.get $D10)))))
        (local.set $s4
          (f64.add
            (local.get $s4)
            (f64.add (f64.mul (local.get $ga) (local.get $D10)) (f64.mul (local.get $be) (local.get $D11)))))
        (local.set $s5
          (f64.add
            (local.get $s5)
            (f64.add (f64.mul (local.get $ga) (local.get $D9)) (f64.mul (local.get $al) (local.get $D11)))))
        ;; stress = K·strain
        (local.set $A (f64.load offset=336 (local.get $base)))
        (local.set $B (f64.load offset=352 (local.get $base)))
        (local.set $C (f64.load offset=368 (local.get $base)))
        (local.set $k0
          (f64.add
            (f64.add (f64.mul (local.get $A) (local.get $s0)) (f64.mul (local.get $B) (local.get $s1)))
            (f64.mul (local.get $B) (local.get $s2))))
        (local.set $k1
          (f64.add
            (f64.add (f64.mul (local.get $B) (local.get $s0)) (f64.mul (local.get $A) (local.get $s1)))
            (f64.mul (local.get $B) (local.get $s2))))
        (local.set $k2
          (f64.add
            (f64.add (f64.mul (local.get $B) (local.get $s0)) (f64.mul (local.get $B) (local.get $s1)))
            (f64.mul (local.get $A) (local.get $s2))))
        (local.set $k3 (f64.mul (local.get $C) (local.get $s3)))
        (local.set $k4 (f64.mul (local.get $C) (local.get $s4)))
        (local.set $k5 (f64.mul (local.get $C) (local.get $s5)))
        ;; node 0: F = J·stress, Rᵀ·F (R read back from the element array), f[node] += … at the position’s address + delta
        (local.set $al (f64.load offset=144 (local.get $base)))
        (local.set $be (f64.load offset=160 (local.get $base)))
        (local.set $ga (f64.load offset=176 (local.get $base)))
        (local.set $fx0
          (f64.add
            (f64.add (f64.mul (local.get $al) (local.get $k0)) (f64.mul (local.get $be) (local.get $k3)))
            (f64.mul (local.get $ga) (local.get $k5))))
        (local.set $fy0
          (f64.add
            (f64.add (f64.mul (local.get $be) (local.get $k1)) (f64.mul (local.get $al) (local.get $k3)))
            (f64.mul (local.get $ga) (local.get $k4))))
        (local.set $fz0
          (f64.add
            (f64.add (f64.mul (local.get $ga) (local.get $k2)) (f64.mul (local.get $be) (local.get $k4)))
            (f64.mul (local.get $al) (local.get $k5))))
        (local.set $Rm0 (f64.load (local.get $base)))
        (local.set $Rm1 (f64.load offset=16 (local.get $base)))
        (local.set $Rm2 (f64.load offset=32 (local.get $base)))
        (local.set $Rm3 (f64.load offset=48 (local.get $base)))
        (local.set $Rm4 (f64.load offset=64 (local.get $base)))
        (local.set $Rm5 (f64.load offset=80 (local.get $base)))
        (local.set $Rm6 (f64.load offset=96 (local.get $base)))
        (local.set $Rm7 (f64.load offset=112 (local.get $base)))
        (local.set $Rm8 (f64.load offset=128 (local.get $base)))
        (local.set $out0
          (f64.add
            (f64.add (f64.mul (local.get $Rm0) (local.get $fx0)) (f64.mul (local.get $Rm3) (local.get $fy0)))
            (f64.mul (local.get $Rm6) (local.get $fz0))))
        (local.set $out1
          (f64.add
            (f64.add (f64.mul (local.get $Rm1) (local.get $fx0)) (f64.mul (local.get $Rm4) (local.get $fy0)))
            (f64.mul (local.get $Rm7) (local.get $fz0))))
        (local.set $out2
          (f64.add
            (f64.add (f64.mul (local.get $Rm2) (local.get $fx0)) (f64.mul (local.get $Rm5) (local.get $fy0)))
            (f64.mul (local.get $Rm8) (local.get $fz0))))
        (local.set $addr (i32.add (i32.load (local.get $ii)) (local.get $delta)))
        (f64.store (local.get $addr) (f64.add (f64.load (local.get $addr)) (local.get $out0)))
        (f64.store offset=8 (local.get $addr) (f64.add (f64.load offset=8 (local.get $addr)) (local.get $out1)))
        (f64.store offset=16 (local.get $addr) (f64.add (f64.load offset=16 (local.get $addr)) (local.get $out2)))
        ;; node 1: F = J·stress, Rᵀ·F (R read back from the element array), f[node] += … at the position’s address + delta
        (local.set $al (f64.load offset=192 (local.get $base)))
        (local.set $be (f64.load offset=208 (local.get $base)))
        (local.set $ga (f64.load offset=224 (local.get $base)))
        (local.set $fx1
          (f64.add
            (f64.add (f64.mul (local.get $al) (local.get $k0)) (f64.mul (local.get $be) (local.get $k3)))
            (f64.mul (local.get $ga) (local.get $k5))))
        (local.set $fy1
          (f64.add
            (f64.add (f64.mul (local.get $be) (local.get $k1)) (f64.mul (local.get $al) (local.get $k3)))
            (f64.mul (local.get $ga) (local.get $k4))))
        (local.set $fz1
          (f64.add
            (f64.add (f64.mul (local.get $ga) (local.get $k2)) (f64.mul (local.get $be) (local.get $k4)))
            (f64.mul (local.get $al) (local.get $k5))))
        (local.set $Rm0 (f64.load (local.get $base)))
        (local.set $Rm1 (f64.load offset=16 (local.get $base)))
        (local.set $Rm2 (f64.load offset=32 (local.get $base)))
        (local.set $Rm3 (f64.load offset=48 (local.get $base)))
        (local.set $Rm4 (f64.load offset=64 (local.get $base)))
        (local.set $Rm5 (f64.load offset=80 (local.get $base)))
        (local.set $Rm6 (f64.load offset=96 (local.get $base)))
        (local.set $Rm7 (f64.load offset=112 (local.get $base)))
        (local.set $Rm8 (f64.load offset=128 (local.get $base)))
        (local.set $out0
          (f64.add
            (f64.add (f64.mul (local.get $Rm0) (local.get $fx1)) (f64.mul (local.get $Rm3) (local.get $fy1)))
            (f64.mul (local.get $Rm6) (local.get $fz1))))
        (local.set $out1
          (f64.add
            (f64.add (f64.mul (local.get $Rm1) (local.get $fx1)) (f64.mul (local.get $Rm4) (local.get $fy1)))
            (f64.mul (local.get $Rm7) (local.get $fz1))))
        (local.set $out2
          (f64.add
            (f64.add (f64.mul (local.get $Rm2) (local.get $fx1)) (f64.mul (local.get $Rm5) (local.get $fy1)))
            (f64.mul (local.get $Rm8) (local.get $fz1))))
        (local.set $addr (i32.add (i32.load offset=4 (local.get $ii)) (local.get $delta)))
        (f64.store (local.get $addr) (f64.add (f64.load (local.get $addr)) (local.get $out0)))
        (f64.store offset=8 (local.get $addr) (f64.add (f64.load offset=8 (local.get $addr)) (local.get $out1)))
        (f64.store offset=16 (local.get $addr) (f64.add (f64.load offset=16 (local.get $addr)) (local.get $out2)))
        ;; node 2: F = J·stress, Rᵀ·F (R read back from the element array), f[node] += … at the position’s address + delta
        (local.set $al (f64.load offset=240 (local.get $base)))
        (local.set $be (f64.load offset=256 (local.get $base)))
        (local.set $ga (f64.load offset=272 (local.get $base)))
        (local.set $fx2
          (f64.add
            (f64.add (f64.mul (local.get $al) (local.get $k0)) (f64.mul (local.get $be) (local.get $k3)))
            (f64.mul (local.get $ga) (local.get $k5))))
        (local.set $fy2
          (f64.add
            (f64.add (f64.mul (local.get $be) (local.get $k1)) (f64.mul (local.get $al) (local.get $k3)))
            (f64.mul (local.get $ga) (local.get $k4))))
        (local.set $fz2
          (f64.add
            (f64.add (f64.mul (local.get $ga) (local.get $k2)) (f64.mul (local.get $be) (local.get $k4)))
            (f64.mul (local.get $al) (local.get $k5))))
        (local.set $Rm0 (f64.load (local.get $base)))
        (local.set $Rm1 (f64.load offset=16 (local.get $base)))
        (local.set $Rm2 (f64.load offset=32 (local.get $base)))
        (local.set $Rm3 (f64.load offset=48 (local.get $base)))
        (local.set $Rm4 (f64.load offset=64 (local.get $base)))
        (local.set $Rm5 (f64.load offset=80 (local.get $base)))
        (local.set $Rm6 (f64.load offset=96 (local.get $base)))
        (local.set $Rm7 (f64.load offset=112 (local.get $base)))
        (local.set $Rm8 (f64.load offset=128 (local.get $base)))
        (local.set $out0
          (f64.add
            (f64.add (f64.mul (local.get $Rm0) (local.get $fx2)) (f64.mul (local.get $Rm3) (local.get $fy2)))
            (f64.mul (local.get $Rm6) (local.get $fz2))))
        (local.set $out1
          (f64.add
            (f64.add (f64.mul (local.get $Rm1) (local.get $fx2)) (f64.mul (local.get $Rm4) (local.get $fy2)))
            (f64.mul (local.get $Rm7) (local.get $fz2))))
        (local.set $out2
          (f64.add
            (f64.add (f64.mul (local.get $Rm2) (local.get $fx2)) (f64.mul (local.get $Rm5) (local.get $fy2)))
            (f64.mul (local.get $Rm8) (local.get $fz2))))
        (local.set $addr (i32.add (i32.load offset=8 (local.get $ii)) (local.get $delta)))
        (f64.store (local.get $addr) (f64.add (f64.load (local.get $addr)) (local.get $out0)))
        (f64.store offset=8 (local.get $addr) (f64.add (f64.load offset=8 (local.get $addr)) (local.get $out1)))
        (f64.store offset=16 (local.get $addr) (f64.add (f64.load offset=16 (local.get $addr)) (local.get $out2)))
        ;; node 3: F = J·stress, Rᵀ·F (R read back from the element array), f[node] += … at the position’s address + delta
        (local.set $al (f64.load offset=288 (local.get $base)))
        (local.set $be (f64.load offset=304 (local.get $base)))
        (local.set $ga (f64.load offset=320 (local.get $base)))
        (local.set $fx3
          (f64.add
            (f64.add (f64.mul (local.get $al) (local.get $k0)) (f64.mul (local.get $be) (local.get $k3)))
            (f64.mul (local.get $ga) (local.get $k5))))
        (local.set $fy3
          (f64.add
            (f64.add (f64.mul (local.get $be) (local.get $k1)) (f64.mul (local.get $al) (local.get $k3)))
            (f64.mul (local.get $ga) (local.get $k4))))
        (local.set $fz3
          (f64.add
            (f64.add (f64.mul (local.get $ga) (local.get $k2)) (f64.mul (local.get $be) (local.get $k4)))
            (f64.mul (local.get $al) (local.get $k5))))
        (local.set $Rm0 (f64.load (local.get $base)))
        (local.set $Rm1 (f64.load offset=16 (local.get $base)))
        (local.set $Rm2 (f64.load offset=32 (local.get $base)))
        (local.set $Rm3 (f64.load offset=48 (local.get $base)))
        (local.set $Rm4 (f64.load offset=64 (local.get $base)))
        (local.set $Rm5 (f64.load offset=80 (local.get $base)))
        (local.set $Rm6 (f64.load offset=96 (local.get $base)))
        (local.set $Rm7 (f64.load offset=112 (local.get $base)))
        (local.set $Rm8 (f64.load offset=128 (local.get $base)))
        (local.set $out0
          (f64.add
            (f64.add (f64.mul (local.get $Rm0) (local.get $fx3)) (f64.mul (local.get $Rm3) (local.get $fy3)))
            (f64.mul (local.get $Rm6) (local.get $fz3))))
        (local.set $out1
          (f64.add
            (f64.add (f64.mul (local.get $Rm1) (local.get $fx3)) (f64.mul (local.get $Rm4) (local.get $fy3)))
            (f64.mul (local.get $Rm7) (local.get $fz3))))
        (local.set $out2
          (f64.add
            (f64.add (f64.mul (local.get $Rm2) (local.get $fx3)) (f64.mul (local.get $Rm5) (local.get $fy3)))
            (f64.mul (local.get $Rm8) (local.get $fz3))))
        (local.set $addr (i32.add (i32.load offset=12 (local.get $ii)) (local.get $delta)))
        (f64.store (local.get $addr) (f64.add (f64.load (local.get $addr)) (local.get $out0)))
        (f64.store offset=8 (local.get $addr) (f64.add (f64.load offset=8 (local.get $addr)) (local.get $out1)))
        (f64.store offset=16 (local.get $addr) (f64.add (f64.load offset=16 (local.get $addr)) (local.get $out2)))
        (local.set $it (i32.add (local.get $it) (i32.const 1)))
        (br $element))))

  ;; tetDFAll(k): tetDF2 over every pair, then tetDF1 on the last element when the count is odd (runRange’s calls)
  (func $tetDFAll (export "tetDFAll") (param $k f64)
    (local $n i32)
    (local.set $n (i32.load (i32.const 0)))
    (call $tetDF2
      (i32.load offset=4 (i32.const 0))
      (i32.load offset=8 (i32.const 0))
      (i32.load offset=12 (i32.const 0))
      (local.get $k)
      (i32.const 0)
      (i32.shr_s (local.get $n) (i32.const 1))
      (i32.load offset=16 (i32.const 0)))
    (if $oddCount (i32.and (local.get $n) (i32.const 1))
      (then
        (call $tetDF1
          (i32.load offset=4 (i32.const 0))
          (i32.load offset=8 (i32.const 0))
          (i32.load offset=12 (i32.const 0))
          (local.get $k)
          (i32.sub (local.get $n) (i32.const 1))
          (local.get $n)))))

  ;; tetK2(elem, e0, e1, U): the 10 upper 3×3 blocks of −Rᵀ·(J·K·Jᵀ)·R of the elements e0 … e1−1
  ;; (e0 even), element e0 + k at U + 720k (upperBlockIndex order: (0,0), (0,1), …, (3,3), each
  ;; row-major), two elements per f64x2 (the pair's lanes; an odd last element's partner is not
  ;; stored): rotatedTetrahedronStiffnessUpper's operations in its order (ai·A·aj is (ai·A)·aj)
  (func $tetK2 (export "tetK2") (param $elem i32) (param $e0 i32) (param $e1 i32) (param $U i32)
    (local $p i32) (local $base i32) (local $u i32) (local $i i32) (local $j i32) (local $gi i32) (local $gj i32) (local $two i32)
    (local $A v128) (local $B v128) (local $C v128) (local $ai v128) (local $bi v128) (local $ci v128)
    (local $aj v128) (local $bj v128) (local $cj v128)
    (local $k00 v128) (local $k01 v128) (local $k02 v128) (local $k10 v128) (local $k11 v128) (local $k12 v128)
    (local $k20 v128) (local $k21 v128) (local $k22 v128)
    (local $t00 v128) (local $t01 v128) (local $t02 v128) (local $t10 v128) (local $t11 v128) (local $t12 v128)
    (local $t20 v128) (local $t21 v128) (local $t22 v128) (local $x v128)
    (local.set $p (i32.shr_u (local.get $e0) (i32.const 1)))
    (local.set $u (local.get $U))
    (block $done
      (loop $pair
        (br_if $done (i32.ge_u (i32.shl (local.get $p) (i32.const 1)) (local.get $e1)))
        (local.set $base (i32.add (local.get $elem) (i32.mul (local.get $p) (i32.const 384))))
        ;; both lanes stored unless the pair's second element is past e1
        (local.set $two (i32.lt_u (i32.add (i32.shl (local.get $p) (i32.const 1)) (i32.const 1)) (local.get $e1)))
        (local.set $A (v128.load offset=336 (local.get $base)))
        (local.set $B (v128.load offset=352 (local.get $base)))
        (local.set $C (v128.load offset=368 (local.get $base)))
        (local.set $i (i32.const 0))
        (block $end_i
          (loop $for_i
            (br_if $end_i (i32.ge_u (local.get $i) (i32.const 4)))
            ;; node i's gradient: fields 9 + 3i … (byte 144 + 48i)
            (local.set $gi (i32.add (local.get $base) (i32.mul (local.get $i) (i32.const 48))))
            (local.set $ai (v128.load offset=144 (local.get $gi)))
            (local.set $bi (v128.load offset=160 (local.get $gi)))
            (local.set $ci (v128.load offset=176 (local.get $gi)))
            (local.set $j (local.get $i))
            (block $end_j
              (loop $for_j
                (br_if $end_j (i32.ge_u (local.get $j) (i32.const 4)))
                (local.set $gj (i32.add (local.get $base) (i32.mul (local.get $j) (i32.const 48))))
                (local.set $aj (v128.load offset=144 (local.get $gj)))
                (local.set $bj (v128.load offset=160 (local.get $gj)))
                (local.set $cj (v128.load offset=176 (local.get $gj)))
                ;; block (i, j) of J·K·Jᵀ
                (local.set $k00 (f64x2.add (f64x2.add (f64x2.mul (f64x2.mul (local.get $ai) (local.get $A)) (local.get $aj)) (f64x2.mul (f64x2.mul (local.get $bi) (local.get $C)) (local.get $bj))) (f64x2.mul (f64x2.mul (local.get $ci) (local.get $C)) (local.get $cj))))
                (local.set $k01 (f64x2.add (f64x2.mul (f64x2.mul (local.get $ai) (local.get $B)) (local.get $bj)) (f64x2.mul (f64x2.mul (local.get $bi) (local.get $C)) (local.get $aj))))
                (local.set $k02 (f64x2.add (f64x2.mul (f64x2.mul (local.get $ai) (local.get $B)) (local.get $cj)) (f64x2.mul (f64x2.mul (local.get $ci) (local.get $C)) (local.get $aj))))
                (local.set $k10 (f64x2.add (f64x2.mul (f64x2.mul (local.get $bi) (local.get $B)) (local.get $aj)) (f64x2.mul (f64x2.mul (local.get $ai) (local.get $C)) (local.get $bj))))
                (local.set $k11 (f64x2.add (f64x2.add (f64x2.mul (f64x2.mul (local.get $bi) (local.get $A)) (local.get $bj)) (f64x2.mul (f64x2.mul (local.get $ai) (local.get $C)) (local.get $aj))) (f64x2.mul (f64x2.mul (local.get $ci) (local.get $C)) (local.get $cj))))
                (local.set $k12 (f64x2.add (f64x2.mul (f64x2.mul (local.get $bi) (local.get $B)) (local.get $cj)) (f64x2.mul (f64x2.mul (local.get $ci) (local.get $C)) (local.get $bj))))
                (local.set $k20 (f64x2.add (f64x2.mul (f64x2.mul (local.get $ci) (local.get $B)) (local.get $aj)) (f64x2.mul (f64x2.mul (local.get $ai) (local.get $C)) (local.get $cj))))
                (local.set $k21 (f64x2.add (f64x2.mul (f64x2.mul (local.get $ci) (local.get $B)) (local.get $bj)) (f64x2.mul (f64x2.mul (local.get $bi) (local.get $C)) (local.get $cj))))
                (local.set $k22 (f64x2.add (f64x2.add (f64x2.mul (f64x2.mul (local.get $ci) (local.get $A)) (local.get $cj)) (f64x2.mul (f64x2.mul (local.get $bi) (local.get $C)) (local.get $bj))) (f64x2.mul (f64x2.mul (local.get $ai) (local.get $C)) (local.get $aj))))
                ;; T = K_ij·R
                (local.set $t00 (f64x2.add (f64x2.add (f64x2.mul (local.get $k00) (v128.load offset=0 (local.get $base))) (f64x2.mul (local.get $k01) (v128.load offset=48 (local.get $base)))) (f64x2.mul (local.get $k02) (v128.load offset=96 (local.get $base)))))
                (local.set $t01 (f64x2.add (f64x2.add (f64x2.mul (local.get $k00) (v128.load offset=16 (local.get $base))) (f64x2.mul (local.get $k01) (v128.load offset=64 (local.get $base)))) (f64x2.mul (local.get $k02) (v128.load offset=112 (local.get $base)))))
                (local.set $t02 (f64x2.add (f64x2.add (f64x2.mul (local.get $k00) (v128.load offset=32 (local.get $base))) (f64x2.mul (local.get $k01) (v128.load offset=80 (local.get $base)))) (f64x2.mul (local.get $k02) (v128.load offset=128 (local.get $base)))))
                (local.set $t10 (f64x2.add (f64x2.add (f64x2.mul (local.get $k10) (v128.load offset=0 (local.get $base))) (f64x2.mul (local.get $k11) (v128.load offset=48 (local.get $base)))) (f64x2.mul (local.get $k12) (v128.load offset=96 (local.get $base)))))
                (local.set $t11 (f64x2.add (f64x2.add (f64x2.mul (local.get $k10) (v128.load offset=16 (local.get $base))) (f64x2.mul (local.get $k11) (v128.load offset=64 (local.get $base)))) (f64x2.mul (local.get $k12) (v128.load offset=112 (local.get $base)))))
                (local.set $t12 (f64x2.add (f64x2.add (f64x2.mul (local.get $k10) (v128.load offset=32 (local.get $base))) (f64x2.mul (local.get $k11) (v128.load offset=80 (local.get $base)))) (f64x2.mul (local.get $k12) (v128.load offset=128 (local.get $base)))))
                (local.set $t20 (f64x2.add (f64x2.add (f64x2.mul (local.get $k20) (v128.load offset=0 (local.get $base))) (f64x2.mul (local.get $k21) (v128.load offset=48 (local.get $base)))) (f64x2.mul (local.get $k22) (v128.load offset=96 (local.get $base)))))
                (local.set $t21 (f64x2.add (f64x2.add (f64x2.mul (local.get $k20) (v128.load offset=16 (local.get $base))) (f64x2.mul (local.get $k21) (v128.load offset=64 (local.get $base)))) (f64x2.mul (local.get $k22) (v128.load offset=112 (local.get $base)))))
                (local.set $t22 (f64x2.add (f64x2.add (f64x2.mul (local.get $k20) (v128.load offset=32 (local.get $base))) (f64x2.mul (local.get $k21) (v128.load offset=80 (local.get $base)))) (f64x2.mul (local.get $k22) (v128.load offset=128 (local.get $base)))))
                ;; U_ij = −Rᵀ·T: lane 0 at u, lane 1 (the pair's second element) at u + 720
                (local.set $x (f64x2.neg (f64x2.add (f64x2.add (f64x2.mul (v128.load offset=0 (local.get $base)) (local.get $t00)) (f64x2.mul (v128.load offset=48 (local.get $base)) (local.get $t10))) (f64x2.mul (v128.load offset=96 (local.get $base)) (local.get $t20)))))
                (v128.store64_lane offset=0 0 (local.get $u) (local.get $x))
                (if (local.get $two) (then (v128.store64_lane offset=720 1 (local.get $u) (local.get $x))))
                (local.set $x (f64x2.neg (f64x2.add (f64x2.add (f64x2.mul (v128.load offset=0 (local.get $base)) (local.get $t01)) (f64x2.mul (v128.load offset=48 (local.get $base)) (local.get $t11))) (f64x2.mul (v128.load offset=96 (local.get $base)) (local.get $t21)))))
                (v128.store64_lane offset=8 0 (local.get $u) (local.get $x))
                (if (local.get $two) (then (v128.store64_lane offset=728 1 (local.get $u) (local.get $x))))
                (local.set $x (f64x2.neg (f64x2.add (f64x2.add (f64x2.mul (v128.load offset=0 (local.get $base)) (local.get $t02)) (f64x2.mul (v128.load offset=48 (local.get $base)) (local.get $t12))) (f64x2.mul (v128.load offset=96 (local.get $base)) (local.get $t22)))))
                (v128.store64_lane offset=16 0 (local.get $u) (local.get $x))
                (if (local.get $two) (then (v128.store64_lane offset=736 1 (local.get $u) (local.get $x))))
                (local.set $x (f64x2.neg (f64x2.add (f64x2.add (f64x2.mul (v128.load offset=16 (local.get $base)) (local.get $t00)) (f64x2.mul (v128.load offset=64 (local.get $base)) (local.get $t10))) (f64x2.mul (v128.load offset=112 (local.get $base)) (local.get $t20)))))
                (v128.store64_lane offset=24 0 (local.get $u) (local.get $x))
                (if (local.get $two) (then (v128.store64_lane offset=744 1 (local.get $u) (local.get $x))))
                (local.set $x (f64x2.neg (f64x2.add (f64x2.add (f64x2.mul (v128.load offset=16 (local.get $base)) (local.get $t01)) (f64x2.mul (v128.load offset=64 (local.get $base)) (local.get $t11))) (f64x2.mul (v128.load offset=112 (local.get $base)) (local.get $t21)))))
                (v128.store64_lane offset=32 0 (local.get $u) (local.get $x))
                (if (local.get $two) (then (v128.store64_lane offset=752 1 (local.get $u) (local.get $x))))
                (local.set $x (f64x2.neg (f64x2.add (f64x2.add (f64x2.mul (v128.load offset=16 (local.get $base)) (local.get $t02)) (f64x2.mul (v128.load offset=64 (local.get $base)) (local.get $t12))) (f64x2.mul (v128.load offset=112 (local.get $base)) (local.get $t22)))))
                (v128.store64_lane offset=40 0 (local.get $u) (local.get $x))
                (if (local.get $two) (then (v128.store64_lane offset=760 1 (local.get $u) (local.get $x))))
                (local.set $x (f64x2.neg (f64x2.add (f64x2.add (f64x2.mul (v128.load offset=32 (local.get $base)) (local.get $t00)) (f64x2.mul (v128.load offset=80 (local.get $base)) (local.get $t10))) (f64x2.mul (v128.load offset=128 (local.get $base)) (local.get $t20)))))
                (v128.store64_lane offset=48 0 (local.get $u) (local.get $x))
                (if (local.get $two) (then (v128.store64_lane offset=768 1 (local.get $u) (local.get $x))))
                (local.set $x (f64x2.neg (f64x2.add (f64x2.add (f64x2.mul (v128.load offset=32 (local.get $base)) (local.get $t01)) (f64x2.mul (v128.load offset=80 (local.get $base)) (local.get $t11))) (f64x2.mul (v128.load offset=128 (local.get $base)) (local.get $t21)))))
                (v128.store64_lane offset=56 0 (local.get $u) (local.get $x))
                (if (local.get $two) (then (v128.store64_lane offset=776 1 (local.get $u) (local.get $x))))
                (local.set $x (f64x2.neg (f64x2.add (f64x2.add (f64x2.mul (v128.load offset=32 (local.get $base)) (local.get $t02)) (f64x2.mul (v128.load offset=80 (local.get $base)) (local.get $t12))) (f64x2.mul (v128.load offset=128 (local.get $base)) (local.get $t22)))))
                (v128.store64_lane offset=64 0 (local.get $u) (local.get $x))
                (if (local.get $two) (then (v128.store64_lane offset=784 1 (local.get $u) (local.get $x))))
                (local.set $u (i32.add (local.get $u) (i32.const 72)))
                (local.set $j (i32.add (local.get $j) (i32.const 1)))
                (br $for_j)))
            (local.set $i (i32.add (local.get $i) (i32.const 1)))
            (br $for_i)))
        ;; the pair's second element's blocks follow the first's
        (local.set $u (i32.add (local.get $u) (i32.const 720)))
        (local.set $p (i32.add (local.get $p) (i32.const 1)))
        (br $pair)))))
