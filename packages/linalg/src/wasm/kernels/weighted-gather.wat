;; The weighted gather of 3-vectors with K terms per output, y_i = Σ_{k<K} w_ik·x_{c_ik}
;; (BarycentricMap.apply; its JavaScript loop is the oracle of weighted-gather-wasm.spec.ts).
;; gatherK(n, terms, y), K = 1 … 8: `terms` holds n × K terms of 16 bytes, the byte address of
;; x_c (i32, padded to 8 bytes) then w (f64); y is the byte address of the n outputs. Per output,
;; (x, y) in one f64x2 and z alone, each sum started from 0 and taken over the terms in order,
;; x_c·w per term: the JavaScript loop's operations lane by lane, so its values bit for bit.
;; One function per K, its K terms written out (no loop over k; the loader picks gatherK by the
;; map's terms per point).
(module
  (import "env" "memory" (memory $env.memory 1 65536 shared))

  (func $gather1 (export "gather1") (param $n i32) (param $terms i32) (param $y i32)
    (local $end i32) (local $a i32) (local $xy v128) (local $z f64) (local $w f64)
    (local.set $end (i32.add (local.get $terms) (i32.mul (local.get $n) (i32.const 16))))
    (block $done
      (loop $output
        (br_if $done (i32.ge_u (local.get $terms) (local.get $end)))
        (local.set $xy (f64x2.splat (f64.const 0)))
        (local.set $z (f64.const 0))
        ;; term at terms + 0: y += w·x_c
        (local.set $a (i32.load (local.get $terms)))
        (local.set $w (f64.load offset=8 (local.get $terms)))
        (local.set $xy
          (f64x2.add (local.get $xy) (f64x2.mul (v128.load (local.get $a)) (f64x2.splat (local.get $w)))))
        (local.set $z (f64.add (local.get $z) (f64.mul (f64.load offset=16 (local.get $a)) (local.get $w))))
        (v128.store (local.get $y) (local.get $xy))
        (f64.store offset=16 (local.get $y) (local.get $z))
        (local.set $terms (i32.add (local.get $terms) (i32.const 16)))
        (local.set $y (i32.add (local.get $y) (i32.const 24)))
        (br $output))))

  (func $gather2 (export "gather2") (param $n i32) (param $terms i32) (param $y i32)
    (local $end i32) (local $a i32) (local $xy v128) (local $z f64) (local $w f64)
    (local.set $end (i32.add (local.get $terms) (i32.mul (local.get $n) (i32.const 32))))
    (block $done
      (loop $output
        (br_if $done (i32.ge_u (local.get $terms) (local.get $end)))
        (local.set $xy (f64x2.splat (f64.const 0)))
        (local.set $z (f64.const 0))
        ;; term at terms + 0: y += w·x_c
        (local.set $a (i32.load (local.get $terms)))
        (local.set $w (f64.load offset=8 (local.get $terms)))
        (local.set $xy
          (f64x2.add (local.get $xy) (f64x2.mul (v128.load (local.get $a)) (f64x2.splat (local.get $w)))))
        (local.set $z (f64.add (local.get $z) (f64.mul (f64.load offset=16 (local.get $a)) (local.get $w))))
        ;; term at terms + 16: y += w·x_c
        (local.set $a (i32.load offset=16 (local.get $terms)))
        (local.set $w (f64.load offset=24 (local.get $terms)))
        (local.set $xy
          (f64x2.add (local.get $xy) (f64x2.mul (v128.load (local.get $a)) (f64x2.splat (local.get $w)))))
        (local.set $z (f64.add (local.get $z) (f64.mul (f64.load offset=16 (local.get $a)) (local.get $w))))
        (v128.store (local.get $y) (local.get $xy))
        (f64.store offset=16 (local.get $y) (local.get $z))
        (local.set $terms (i32.add (local.get $terms) (i32.const 32)))
        (local.set $y (i32.add (local.get $y) (i32.const 24)))
        (br $output))))

  (func $gather3 (export "gather3") (param $n i32) (param $terms i32) (param $y i32)
    (local $end i32) (local $a i32) (local $xy v128) (local $z f64) (local $w f64)
    (local.set $end (i32.add (local.get $terms) (i32.mul (local.get $n) (i32.const 48))))
    (block $done
      (loop $output
        (br_if $done (i32.ge_u (local.get $terms) (local.get $end)))
        (local.set $xy (f64x2.splat (f64.const 0)))
        (local.set $z (f64.const 0))
        ;; term at terms + 0: y += w·x_c
        (local.set $a (i32.load (local.get $terms)))
        (local.set $w (f64.load offset=8 (local.get $terms)))
        (local.set $xy
          (f64x2.add (local.get $xy) (f64x2.mul (v128.load (local.get $a)) (f64x2.splat (local.get $w)))))
        (local.set $z (f64.add (local.get $z) (f64.mul (f64.load offset=16 (local.get $a)) (local.get $w))))
        ;; term at terms + 16: y += w·x_c
        (local.set $a (i32.load offset=16 (local.get $terms)))
        (local.set $w (f64.load offset=24 (local.get $terms)))
        (local.set $xy
          (f64x2.add (local.get $xy) (f64x2.mul (v128.load (local.get $a)) (f64x2.splat (local.get $w)))))
        (local.set $z (f64.add (local.get $z) (f64.mul (f64.load offset=16 (local.get $a)) (local.get $w))))
        ;; term at terms + 32: y += w·x_c
        (local.set $a (i32.load offset=32 (local.get $terms)))
        (local.set $w (f64.load offset=40 (local.get $terms)))
        (local.set $xy
          (f64x2.add (local.get $xy) (f64x2.mul (v128.load (local.get $a)) (f64x2.splat (local.get $w)))))
        (local.set $z (f64.add (local.get $z) (f64.mul (f64.load offset=16 (local.get $a)) (local.get $w))))
        (v128.store (local.get $y) (local.get $xy))
        (f64.store offset=16 (local.get $y) (local.get $z))
        (local.set $terms (i32.add (local.get $terms) (i32.const 48)))
        (local.set $y (i32.add (local.get $y) (i32.const 24)))
        (br $output))))

  (func $gather4 (export "gather4") (param $n i32) (param $terms i32) (param $y i32)
    (local $end i32) (local $a i32) (local $xy v128) (local $z f64) (local $w f64)
    (local.set $end (i32.add (local.get $terms) (i32.mul (local.get $n) (i32.const 64))))
    (block $done
      (loop $output
        (br_if $done (i32.ge_u (local.get $terms) (local.get $end)))
        (local.set $xy (f64x2.splat (f64.const 0)))
        (local.set $z (f64.const 0))
        ;; term at terms + 0: y += w·x_c
        (local.set $a (i32.load (local.get $terms)))
        (local.set $w (f64.load offset=8 (local.get $terms)))
        (local.set $xy
          (f64x2.add (local.get $xy) (f64x2.mul (v128.load (local.get $a)) (f64x2.splat (local.get $w)))))
        (local.set $z (f64.add (local.get $z) (f64.mul (f64.load offset=16 (local.get $a)) (local.get $w))))
        ;; term at terms + 16: y += w·x_c
        (local.set $a (i32.load offset=16 (local.get $terms)))
        (local.set $w (f64.load offset=24 (local.get $terms)))
        (local.set $xy
          (f64x2.add (local.get $xy) (f64x2.mul (v128.load (local.get $a)) (f64x2.splat (local.get $w)))))
        (local.set $z (f64.add (local.get $z) (f64.mul (f64.load offset=16 (local.get $a)) (local.get $w))))
        ;; term at terms + 32: y += w·x_c
        (local.set $a (i32.load offset=32 (local.get $terms)))
        (local.set $w (f64.load offset=40 (local.get $terms)))
        (local.set $xy
          (f64x2.add (local.get $xy) (f64x2.mul (v128.load (local.get $a)) (f64x2.splat (local.get $w)))))
        (local.set $z (f64.add (local.get $z) (f64.mul (f64.load offset=16 (local.get $a)) (local.get $w))))
        ;; term at terms + 48: y += w·x_c
        (local.set $a (i32.load offset=48 (local.get $terms)))
        (local.set $w (f64.load offset=56 (local.get $terms)))
        (local.set $xy
          (f64x2.add (local.get $xy) (f64x2.mul (v128.load (local.get $a)) (f64x2.splat (local.get $w)))))
        (local.set $z (f64.add (local.get $z) (f64.mul (f64.load offset=16 (local.get $a)) (local.get $w))))
        (v128.store (local.get $y) (local.get $xy))
        (f64.store offset=16 (local.get $y) (local.get $z))
        (local.set $terms (i32.add (local.get $terms) (i32.const 64)))
        (local.set $y (i32.add (local.get $y) (i32.const 24)))
        (br $output))))

  (func $gather5 (export "gather5") (param $n i32) (param $terms i32) (param $y i32)
    (local $end i32) (local $a i32) (local $xy v128) (local $z f64) (local $w f64)
    (local.set $end (i32.add (local.get $terms) (i32.mul (local.get $n) (i32.const 80))))
    (block $done
      (loop $output
        (br_if $done (i32.ge_u (local.get $terms) (local.get $end)))
        (local.set $xy (f64x2.splat (f64.const 0)))
        (local.set $z (f64.const 0))
        ;; term at terms + 0: y += w·x_c
        (local.set $a (i32.load (local.get $terms)))
        (local.set $w (f64.load offset=8 (local.get $terms)))
        (local.set $xy
          (f64x2.add (local.get $xy) (f64x2.mul (v128.load (local.get $a)) (f64x2.splat (local.get $w)))))
        (local.set $z (f64.add (local.get $z) (f64.mul (f64.load offset=16 (local.get $a)) (local.get $w))))
        ;; term at terms + 16: y += w·x_c
        (local.set $a (i32.load offset=16 (local.get $terms)))
        (local.set $w (f64.load offset=24 (local.get $terms)))
        (local.set $xy
          (f64x2.add (local.get $xy) (f64x2.mul (v128.load (local.get $a)) (f64x2.splat (local.get $w)))))
        (local.set $z (f64.add (local.get $z) (f64.mul (f64.load offset=16 (local.get $a)) (local.get $w))))
        ;; term at terms + 32: y += w·x_c
        (local.set $a (i32.load offset=32 (local.get $terms)))
        (local.set $w (f64.load offset=40 (local.get $terms)))
        (local.set $xy
          (f64x2.add (local.get $xy) (f64x2.mul (v128.load (local.get $a)) (f64x2.splat (local.get $w)))))
        (local.set $z (f64.add (local.get $z) (f64.mul (f64.load offset=16 (local.get $a)) (local.get $w))))
        ;; term at terms + 48: y += w·x_c
        (local.set $a (i32.load offset=48 (local.get $terms)))
        (local.set $w (f64.load offset=56 (local.get $terms)))
        (local.set $xy
          (f64x2.add (local.get $xy) (f64x2.mul (v128.load (local.get $a)) (f64x2.splat (local.get $w)))))
        (local.set $z (f64.add (local.get $z) (f64.mul (f64.load offset=16 (local.get $a)) (local.get $w))))
        ;; term at terms + 64: y += w·x_c
        (local.set $a (i32.load offset=64 (local.get $terms)))
        (local.set $w (f64.load offset=72 (local.get $terms)))
        (local.set $xy
          (f64x2.add (local.get $xy) (f64x2.mul (v128.load (local.get $a)) (f64x2.splat (local.get $w)))))
        (local.set $z (f64.add (local.get $z) (f64.mul (f64.load offset=16 (local.get $a)) (local.get $w))))
        (v128.store (local.get $y) (local.get $xy))
        (f64.store offset=16 (local.get $y) (local.get $z))
        (local.set $terms (i32.add (local.get $terms) (i32.const 80)))
        (local.set $y (i32.add (local.get $y) (i32.const 24)))
        (br $output))))

  (func $gather6 (export "gather6") (param $n i32) (param $terms i32) (param $y i32)
    (local $end i32) (local $a i32) (local $xy v128) (local $z f64) (local $w f64)
    (local.set $end (i32.add (local.get $terms) (i32.mul (local.get $n) (i32.const 96))))
    (block $done
      (loop $output
        (br_if $done (i32.ge_u (local.get $terms) (local.get $end)))
        (local.set $xy (f64x2.splat (f64.const 0)))
        (local.set $z (f64.const 0))
        ;; term at terms + 0: y += w·x_c
        (local.set $a (i32.load (local.get $terms)))
        (local.set $w (f64.load offset=8 (local.get $terms)))
        (local.set $xy
          (f64x2.add (local.get $xy) (f64x2.mul (v128.load (local.get $a)) (f64x2.splat (local.get $w)))))
        (local.set $z (f64.add (local.get $z) (f64.mul (f64.load offset=16 (local.get $a)) (local.get $w))))
        ;; term at terms + 16: y += w·x_c
        (local.set $a (i32.load offset=16 (local.get $terms)))
        (local.set $w (f64.load offset=24 (local.get $terms)))
        (local.set $xy
          (f64x2.add (local.get $xy) (f64x2.mul (v128.load (local.get $a)) (f64x2.splat (local.get $w)))))
        (local.set $z (f64.add (local.get $z) (f64.mul (f64.load offset=16 (local.get $a)) (local.get $w))))
        ;; term at terms + 32: y += w·x_c
        (local.set $a (i32.load offset=32 (local.get $terms)))
        (local.set $w (f64.load offset=40 (local.get $terms)))
        (local.set $xy
          (f64x2.add (local.get $xy) (f64x2.mul (v128.load (local.get $a)) (f64x2.splat (local.get $w)))))
        (local.set $z (f64.add (local.get $z) (f64.mul (f64.load offset=16 (local.get $a)) (local.get $w))))
        ;; term at terms + 48: y += w·x_c
        (local.set $a (i32.load offset=48 (local.get $terms)))
        (local.set $w (f64.load offset=56 (local.get $terms)))
        (local.set $xy
          (f64x2.add (local.get $xy) (f64x2.mul (v128.load (local.get $a)) (f64x2.splat (local.get $w)))))
        (local.set $z (f64.add (local.get $z) (f64.mul (f64.load offset=16 (local.get $a)) (local.get $w))))
        ;; term at terms + 64: y += w·x_c
        (local.set $a (i32.load offset=64 (local.get $terms)))
        (local.set $w (f64.load offset=72 (local.get $terms)))
        (local.set $xy
          (f64x2.add (local.get $xy) (f64x2.mul (v128.load (local.get $a)) (f64x2.splat (local.get $w)))))
        (local.set $z (f64.add (local.get $z) (f64.mul (f64.load offset=16 (local.get $a)) (local.get $w))))
        ;; term at terms + 80: y += w·x_c
        (local.set $a (i32.load offset=80 (local.get $terms)))
        (local.set $w (f64.load offset=88 (local.get $terms)))
        (local.set $xy
          (f64x2.add (local.get $xy) (f64x2.mul (v128.load (local.get $a)) (f64x2.splat (local.get $w)))))
        (local.set $z (f64.add (local.get $z) (f64.mul (f64.load offset=16 (local.get $a)) (local.get $w))))
        (v128.store (local.get $y) (local.get $xy))
        (f64.store offset=16 (local.get $y) (local.get $z))
        (local.set $terms (i32.add (local.get $terms) (i32.const 96)))
        (local.set $y (i32.add (local.get $y) (i32.const 24)))
        (br $output))))

  (func $gather7 (export "gather7") (param $n i32) (param $terms i32) (param $y i32)
    (local $end i32) (local $a i32) (local $xy v128) (local $z f64) (local $w f64)
    (local.set $end (i32.add (local.get $terms) (i32.mul (local.get $n) (i32.const 112))))
    (block $done
      (loop $output
        (br_if $done (i32.ge_u (local.get $terms) (local.get $end)))
        (local.set $xy (f64x2.splat (f64.const 0)))
        (local.set $z (f64.const 0))
        ;; term at terms + 0: y += w·x_c
        (local.set $a (i32.load (local.get $terms)))
        (local.set $w (f64.load offset=8 (local.get $terms)))
        (local.set $xy
          (f64x2.add (local.get $xy) (f64x2.mul (v128.load (local.get $a)) (f64x2.splat (local.get $w)))))
        (local.set $z (f64.add (local.get $z) (f64.mul (f64.load offset=16 (local.get $a)) (local.get $w))))
        ;; term at terms + 16: y += w·x_c
        (local.set $a (i32.load offset=16 (local.get $terms)))
        (local.set $w (f64.load offset=24 (local.get $terms)))
        (local.set $xy
          (f64x2.add (local.get $xy) (f64x2.mul (v128.load (local.get $a)) (f64x2.splat (local.get $w)))))
        (local.set $z (f64.add (local.get $z) (f64.mul (f64.load offset=16 (local.get $a)) (local.get $w))))
        ;; term at terms + 32: y += w·x_c
        (local.set $a (i32.load offset=32 (local.get $terms)))
        (local.set $w (f64.load offset=40 (local.get $terms)))
        (local.set $xy
          (f64x2.add (local.get $xy) (f64x2.mul (v128.load (local.get $a)) (f64x2.splat (local.get $w)))))
        (local.set $z (f64.add (local.get $z) (f64.mul (f64.load offset=16 (local.get $a)) (local.get $w))))
        ;; term at terms + 48: y += w·x_c
        (local.set $a (i32.load offset=48 (local.get $terms)))
        (local.set $w (f64.load offset=56 (local.get $terms)))
        (local.set $xy
          (f64x2.add (local.get $xy) (f64x2.mul (v128.load (local.get $a)) (f64x2.splat (local.get $w)))))
        (local.set $z (f64.add (local.get $z) (f64.mul (f64.load offset=16 (local.get $a)) (local.get $w))))
        ;; term at terms + 64: y += w·x_c
        (local.set $a (i32.load offset=64 (local.get $terms)))
        (local.set $w (f64.load offset=72 (local.get $terms)))
        (local.set $xy
          (f64x2.add (local.get $xy) (f64x2.mul (v128.load (local.get $a)) (f64x2.splat (local.get $w)))))
        (local.set $z (f64.add (local.get $z) (f64.mul (f64.load offset=16 (local.get $a)) (local.get $w))))
        ;; term at terms + 80: y += w·x_c
        (local.set $a (i32.load offset=80 (local.get $terms)))
        (local.set $w (f64.load offset=88 (local.get $terms)))
        (local.set $xy
          (f64x2.add (local.get $xy) (f64x2.mul (v128.load (local.get $a)) (f64x2.splat (local.get $w)))))
        (local.set $z (f64.add (local.get $z) (f64.mul (f64.load offset=16 (local.get $a)) (local.get $w))))
        ;; term at terms + 96: y += w·x_c
        (local.set $a (i32.load offset=96 (local.get $terms)))
        (local.set $w (f64.load offset=104 (local.get $terms)))
        (local.set $xy
          (f64x2.add (local.get $xy) (f64x2.mul (v128.load (local.get $a)) (f64x2.splat (local.get $w)))))
        (local.set $z (f64.add (local.get $z) (f64.mul (f64.load offset=16 (local.get $a)) (local.get $w))))
        (v128.store (local.get $y) (local.get $xy))
        (f64.store offset=16 (local.get $y) (local.get $z))
        (local.set $terms (i32.add (local.get $terms) (i32.const 112)))
        (local.set $y (i32.add (local.get $y) (i32.const 24)))
        (br $output))))

  (func $gather8 (export "gather8") (param $n i32) (param $terms i32) (param $y i32)
    (local $end i32) (local $a i32) (local $xy v128) (local $z f64) (local $w f64)
    (local.set $end (i32.add (local.get $terms) (i32.mul (local.get $n) (i32.const 128))))
    (block $done
      (loop $output
        (br_if $done (i32.ge_u (local.get $terms) (local.get $end)))
        (local.set $xy (f64x2.splat (f64.const 0)))
        (local.set $z (f64.const 0))
        ;; term at terms + 0: y += w·x_c
        (local.set $a (i32.load (local.get $terms)))
        (local.set $w (f64.load offset=8 (local.get $terms)))
        (local.set $xy
          (f64x2.add (local.get $xy) (f64x2.mul (v128.load (local.get $a)) (f64x2.splat (local.get $w)))))
        (local.set $z (f64.add (local.get $z) (f64.mul (f64.load offset=16 (local.get $a)) (local.get $w))))
        ;; term at terms + 16: y += w·x_c
        (local.set $a (i32.load offset=16 (local.get $terms)))
        (local.set $w (f64.load offset=24 (local.get $terms)))
        (local.set $xy
          (f64x2.add (local.get $xy) (f64x2.mul (v128.load (local.get $a)) (f64x2.splat (local.get $w)))))
        (local.set $z (f64.add (local.get $z) (f64.mul (f64.load offset=16 (local.get $a)) (local.get $w))))
        ;; term at terms + 32: y += w·x_c
        (local.set $a (i32.load offset=32 (local.get $terms)))
        (local.set $w (f64.load offset=40 (local.get $terms)))
        (local.set $xy
          (f64x2.add (local.get $xy) (f64x2.mul (v128.load (local.get $a)) (f64x2.splat (local.get $w)))))
        (local.set $z (f64.add (local.get $z) (f64.mul (f64.load offset=16 (local.get $a)) (local.get $w))))
        ;; term at terms + 48: y += w·x_c
        (local.set $a (i32.load offset=48 (local.get $terms)))
        (local.set $w (f64.load offset=56 (local.get $terms)))
        (local.set $xy
          (f64x2.add (local.get $xy) (f64x2.mul (v128.load (local.get $a)) (f64x2.splat (local.get $w)))))
        (local.set $z (f64.add (local.get $z) (f64.mul (f64.load offset=16 (local.get $a)) (local.get $w))))
        ;; term at terms + 64: y += w·x_c
        (local.set $a (i32.load offset=64 (local.get $terms)))
        (local.set $w (f64.load offset=72 (local.get $terms)))
        (local.set $xy
          (f64x2.add (local.get $xy) (f64x2.mul (v128.load (local.get $a)) (f64x2.splat (local.get $w)))))
        (local.set $z (f64.add (local.get $z) (f64.mul (f64.load offset=16 (local.get $a)) (local.get $w))))
        ;; term at terms + 80: y += w·x_c
        (local.set $a (i32.load offset=80 (local.get $terms)))
        (local.set $w (f64.load offset=88 (local.get $terms)))
        (local.set $xy
          (f64x2.add (local.get $xy) (f64x2.mul (v128.load (local.get $a)) (f64x2.splat (local.get $w)))))
        (local.set $z (f64.add (local.get $z) (f64.mul (f64.load offset=16 (local.get $a)) (local.get $w))))
        ;; term at terms + 96: y += w·x_c
        (local.set $a (i32.load offset=96 (local.get $terms)))
        (local.set $w (f64.load offset=104 (local.get $terms)))
        (local.set $xy
          (f64x2.add (local.get $xy) (f64x2.mul (v128.load (local.get $a)) (f64x2.splat (local.get $w)))))
        (local.set $z (f64.add (local.get $z) (f64.mul (f64.load offset=16 (local.get $a)) (local.get $w))))
        ;; term at terms + 112: y += w·x_c
        (local.set $a (i32.load offset=112 (local.get $terms)))
        (local.set $w (f64.load offset=120 (local.get $terms)))
        (local.set $xy
          (f64x2.add (local.get $xy) (f64x2.mul (v128.load (local.get $a)) (f64x2.splat (local.get $w)))))
        (local.set $z (f64.add (local.get $z) (f64.mul (f64.load offset=16 (local.get $a)) (local.get $w))))
        (v128.store (local.get $y) (local.get $xy))
        (f64.store offset=16 (local.get $y) (local.get $z))
        (local.set $terms (i32.add (local.get $terms) (i32.const 128)))
        (local.set $y (i32.add (local.get $y) (i32.const 24)))
        (br $output)))))
