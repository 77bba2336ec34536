;; The vectors and vector operations of a matrix-free conjugate gradient on one state of 3D points,
;; in the WebAssembly memory of the product that computes q = A·p (matrix-free-cg-wasm.ts loads
;; it; the JavaScript conjugateGradient with MechanicalSystem's node-wise dots is the oracle of
;; matrix-free-cg-wasm.spec.ts). Every operation is the JavaScript path's, in its order, so the
;; iterates are the same bit for bit:
;;   - dots sum as MechanicalSystem.dot sums a Vec3 state: per node a₀b₀ + a₁b₁ + a₂b₂, the nodes
;;     accumulated in order from 0, the state's sum added to 0;
;;   - element-wise operations on a node's (x, y) run as one f64x2 operation (the same IEEE
;;     operations lane by lane), z alone.
;; Functions take byte addresses; the dots are stored at a result address. `product(k)` is the
;; imported in-place product (the force field's addDForce: a WebAssembly function of the same
;; memory, or JavaScript).
(module
  (import "env" "memory" (memory $env.memory 1 65536 shared))
  (import "env" "product" (func $product (param f64)))

  ;; mfDot(a, b, nNodes, out): the node-wise a·b stored at out
  (func $mfDot (export "mfDot") (param $a i32) (param $b i32) (param $n i32) (param $out i32)
    (local $end i32) (local $acc f64) (local $t v128)
    (local.set $acc (f64.const 0))
    (local.set $end (i32.add (local.get $a) (i32.mul (local.get $n) (i32.const 24))))
    (block $done
      (loop $node
        (br_if $done (i32.ge_u (local.get $a) (local.get $end)))
        (local.get $acc)
        ;; a₀b₀ + a₁b₁ of the node, (a₀b₀, a₁b₁) as one f64x2 product, then + a₂b₂, added to the sum
        (local.set $t (f64x2.mul (v128.load (local.get $a)) (v128.load (local.get $b))))
        (f64.add
          (f64.add (f64x2.extract_lane 0 (local.get $t)) (f64x2.extract_lane 1 (local.get $t)))
          (f64.mul (f64.load offset=16 (local.get $a)) (f64.load offset=16 (local.get $b))))
        (local.set $acc (f64.add))
        (local.set $a (i32.add (local.get $a) (i32.const 24)))
        (local.set $b (i32.add (local.get $b) (i32.const 24)))
        (br $node)))
    ;; the state's sum added to 0
    (f64.store (local.get $out) (f64.add (f64.const 0) (local.get $acc))))

  ;; mfMass(q, p, mass, nNodes, m): q_3i+c = 0 + (p_3i+c·mass_i)·m ((x, y) as one f64x2; DiagonalMass's addMDx into a cleared vector)
  (func $mfMass (export "mfMass") (param $q i32) (param $p i32) (param $mass i32) (param $n i32) (param $m f64)
    (local $end i32) (local $mi f64) (local $zero v128) (local $m2 v128)
    (local.set $zero (f64x2.splat (f64.const 0)))
    (local.set $m2 (f64x2.splat (local.get $m)))
    (local.set $end (i32.add (local.get $mass) (i32.shl (local.get $n) (i32.const 3))))
    (block $done
      (loop $node
        (br_if $done (i32.ge_u (local.get $mass) (local.get $end)))
        (local.set $mi (f64.load (local.get $mass)))
        (v128.store
          (local.get $q)
          (f64x2.add
            (local.get $zero)
            (f64x2.mul (f64x2.mul (v128.load (local.get $p)) (f64x2.splat (local.get $mi))) (local.get $m2))))
        (f64.store offset=16
          (local.get $q)
          (f64.add
            (f64.const 0)
            (f64.mul (f64.mul (f64.load offset=16 (local.get $p)) (local.get $mi)) (local.get $m))))
        (local.set $mass (i32.add (local.get $mass) (i32.const 8)))
        (local.set $p (i32.add (local.get $p) (i32.const 24)))
        (local.set $q (i32.add (local.get $q) (i32.const 24)))
        (br $node))))

  ;; mfZero(q, dofs, count): q[dofs[j]] = 0 (dofs: i32 scalar indices; FixedProjectiveConstraint's projection)
  (func $mfZero (export "mfZero") (param $q i32) (param $dofs i32) (param $count i32)
    (local $end i32)
    (local.set $end (i32.add (local.get $dofs) (i32.shl (local.get $count) (i32.const 2))))
    (block $done
      (loop $dof
        (br_if $done (i32.ge_u (local.get $dofs) (local.get $end)))
        (f64.store (i32.add (local.get $q) (i32.shl (i32.load (local.get $dofs)) (i32.const 3))) (f64.const 0))
        (local.set $dofs (i32.add (local.get $dofs) (i32.const 4)))
        (br $dof))))

  ;; mfDirection(p, r, n, β): p_i = p_i·β + r_i over n scalars (two per f64x2, then the last one)
  (func $mfDirection (export "mfDirection") (param $p i32) (param $r i32) (param $n i32) (param $beta f64)
    (local $end i32) (local $b2 v128)
    (local.set $b2 (f64x2.splat (local.get $beta)))
    ;; pairs up to p + 8·(n & ~1), then the odd one
    (local.set $end (i32.add (local.get $p) (i32.shl (i32.and (local.get $n) (i32.const -2)) (i32.const 3))))
    (block $done
      (loop $pair
        (br_if $done (i32.ge_u (local.get $p) (local.get $end)))
        (v128.store
          (local.get $p)
          (f64x2.add (f64x2.mul (v128.load (local.get $p)) (local.get $b2)) (v128.load (local.get $r))))
        (local.set $p (i32.add (local.get $p) (i32.const 16)))
        (local.set $r (i32.add (local.get $r) (i32.const 16)))
        (br $pair)))
    (if $odd (i32.and (local.get $n) (i32.const 1))
      (then
        (f64.store
          (local.get $p)
          (f64.add (f64.mul (f64.load (local.get $p)) (local.get $beta)) (f64.load (local.get $r)))))))

  ;; mfUpdate(x, r, p, q, nNodes, α, out): x += p·α; r += q·(−α); the node-wise r·r stored at out ((x, y) as one f64x2)
  (func $mfUpdate (export "mfUpdate") (param $x i32) (param $r i32) (param $p i32) (param $q i32) (param $n i32) (param $alpha f64) (param $out i32)
    (local $end i32) (local $nalpha f64) (local $acc f64) (local $a2 v128) (local $na2 v128) (local $rz f64)
    (local $t v128)
    (local.set $nalpha (f64.neg (local.get $alpha)))
    (local.set $a2 (f64x2.splat (local.get $alpha)))
    (local.set $na2 (f64x2.splat (local.get $nalpha)))
    (local.set $acc (f64.const 0))
    (local.set $end (i32.add (local.get $x) (i32.mul (local.get $n) (i32.const 24))))
    (block $done
      (loop $node
        (br_if $done (i32.ge_u (local.get $x) (local.get $end)))
        (v128.store
          (local.get $x)
          (f64x2.add (v128.load (local.get $x)) (f64x2.mul (v128.load (local.get $p)) (local.get $a2))))
        (f64.store offset=16
          (local.get $x)
          (f64.add
            (f64.load offset=16 (local.get $x))
            (f64.mul (f64.load offset=16 (local.get $p)) (local.get $alpha))))
        (v128.store
          (local.get $r)
          (f64x2.add (v128.load (local.get $r)) (f64x2.mul (v128.load (local.get $q)) (local.get $na2))))
        (f64.store offset=16
          (local.get $r)
          (local.tee $rz
            (f64.add
              (f64.load offset=16 (local.get $r))
              (f64.mul (f64.load offset=16 (local.get $q)) (local.get $nalpha)))))
        (local.get $acc)
        ;; r·r of the node: (r₀r₀, r₁r₁) as one f64x2 product, r₀r₀ + r₁r₁, + r₂r₂, added to the sum
        (local.set $t (f64x2.mul (v128.load (local.get $r)) (v128.load (local.get $r))))
        (f64.add
          (f64.add (f64x2.extract_lane 0 (local.get $t)) (f64x2.extract_lane 1 (local.get $t)))
          (f64.mul (local.get $rz) (local.get $rz)))
        (local.set $acc (f64.add))
        (local.set $x (i32.add (local.get $x) (i32.const 24)))
        (local.set $r (i32.add (local.get $r) (i32.const 24)))
        (local.set $p (i32.add (local.get $p) (i32.const 24)))
        (local.set $q (i32.add (local.get $q) (i32.const 24)))
        (br $node)))
    ;; the state's sum added to 0
    (f64.store (local.get $out) (f64.add (f64.const 0) (local.get $acc))))

  ;; mfSolve(x, r, p, q, masses, nNodes, m, useMass, k, useProduct, dofs, dofCount, ρ₀, |b|, maxIt, tolerance, threshold,
  ;; firstSolve, out): conjugateGradient's loop (kernelIterations there), x and r holding the start (x = 0, r = b,
  ;; or the warm start's), ρ₀ = r·r. At out: +0 the dots' scratch, +8 the last relative residual (0 when no iteration
  ;; ran), +16 the iteration counter at exit (i32), +20 the stop reason's code (iterations 0, tolerance 1, threshold 2,
  ;; zero-denominator 3: REASONS). A stop test may not stop iteration 1 of the first solve: (it ≠ 1) | (first = 0).
  (func $mfSolve (export "mfSolve") (param $x i32) (param $r i32) (param $p i32) (param $q i32) (param $masses i32) (param $nNodes i32) (param $m f64) (param $useMass i32) (param $k f64) (param $useProduct i32) (param $dofs i32) (param $dofCount i32) (param $rho0 f64) (param $normb f64) (param $maxIt i32) (param $tol f64) (param $thr f64) (param $first i32) (param $out i32)
    (local $it i32) (local $bytes i32) (local $rho f64) (local $rhoPrev f64) (local $rhoNext f64) (local $err f64)
    (local $den f64)
    (local.set $bytes (i32.mul (local.get $nNodes) (i32.const 24)))
    (local.set $rhoPrev (f64.const 0))
    (local.set $rhoNext (local.get $rho0))
    (local.set $it (i32.const 1))
    (f64.store offset=8 (local.get $out) (f64.const 0))
    (i32.store offset=20 (local.get $out) (i32.const 0))
    (block $done
      (loop $iteration
        (br_if $done (i32.gt_s (local.get $it) (local.get $maxIt)))
        (local.set $rho (local.get $rhoNext))
        ;; err = √ρ / |b|
        (local.set $err (f64.div (f64.sqrt (local.get $rho)) (local.get $normb)))
        (f64.store offset=8 (local.get $out) (local.get $err))
        (if $converged (i32.and (f64.le (local.get $err) (local.get $tol)) (i32.or (i32.ne (local.get $it) (i32.const 1)) (i32.eqz (local.get $first))))
          (then
            (i32.store offset=20 (local.get $out) (i32.const 1))
            (br $done)))
        ;; p = r at the first iteration, else p = p·(ρ/ρ_prev) + r
        (if $firstIteration (i32.eq (local.get $it) (i32.const 1))
          (then
            (memory.copy (local.get $p) (local.get $r) (local.get $bytes)))
          (else
            (call $mfDirection
              (local.get $p)
              (local.get $r)
              (i32.mul (local.get $nNodes) (i32.const 3))
              (f64.div (local.get $rho) (local.get $rhoPrev)))))
        ;; q = P·(m·M + k·K)·p, as MechanicalSystem.applyMBK: q = 0 or the mass product, then the product, then the zeroed dofs
        (if $withMass (local.get $useMass)
          (then
            (call $mfMass (local.get $q) (local.get $p) (local.get $masses) (local.get $nNodes) (local.get $m)))
          (else
            (memory.fill (local.get $q) (i32.const 0) (local.get $bytes))))
        (if $withProduct (local.get $useProduct)
          (then
            (call $product (local.get $k))))
        (if $withZeroedDofs (local.get $dofCount)
          (then
            (call $mfZero (local.get $q) (local.get $dofs) (local.get $dofCount))))
        ;; den = p·q
        (call $mfDot (local.get $p) (local.get $q) (local.get $nNodes) (local.get $out))
        (local.set $den (f64.load (local.get $out)))
        (if $zeroDenominator (f64.eq (local.get $den) (f64.const 0))
          (then
            (i32.store offset=20 (local.get $out) (i32.const 3))
            (br $done)))
        (if $belowThreshold (i32.and (f64.le (f64.abs (local.get $den)) (local.get $thr)) (i32.or (i32.ne (local.get $it) (i32.const 1)) (i32.eqz (local.get $first))))
          (then
            (i32.store offset=20 (local.get $out) (i32.const 2))
            (br $done)))
        ;; x += α·p; r −= α·q; ρ = r·r
        (call $mfUpdate
          (local.get $x)
          (local.get $r)
          (local.get $p)
          (local.get $q)
          (local.get $nNodes)
          (f64.div (local.get $rho) (local.get $den))
          (local.get $out))
        (local.set $rhoNext (f64.load (local.get $out)))
        (local.set $rhoPrev (local.get $rho))
        (local.set $it (i32.add (local.get $it) (i32.const 1)))
        (br $iteration)))
    (i32.store offset=16 (local.get $out) (local.get $it))))

