;; The SIMD kernel of the vector index's first pass (see code-arena.ts): for each of `count`
;; sign-bit codes of `chunks` × 16 bytes from `codes`, the number of bits that differ from the
;; code at `query`, stored as a u16 at `out`, and counted in a histogram of u32 at `query + 512`
;; (the caller zeroes it). A byte lane of `acc` adds 8 at most a chunk, so up to 31 chunks
;; (3,968 bits) fit before a lane could overflow.
;;
;; The histogram is counted here because a JavaScript pass over a million distances to count
;; them cost as much again as a quarter of the scan; here it hides behind the next row's loads.
;;
;; This file is the source of hamming-wasm.ts: after a change, run `npm run assemble` (wabt's
;; wat2wasm); code-arena.test.ts fails while the two disagree.
(module
  (import "env" "memory" (memory 1))
  (func (export "hamming")
    (param $codes i32) (param $count i32) (param $chunks i32) (param $query i32) (param $out i32)
    (local $c i32) (local $q i32) (local $acc v128) (local $d i32)
    (block $none
      (br_if $none (i32.eqz (local.get $count)))
      (loop $row
        (local.set $acc (v128.const i32x4 0 0 0 0))
        (local.set $q (local.get $query))
        (local.set $c (local.get $chunks))
        ;; 16 bytes a step: acc += popcount(code xor query), per byte lane.
        (loop $chunk
          (local.set $acc
            (i8x16.add
              (local.get $acc)
              (i8x16.popcnt
                (v128.xor
                  (v128.load align=1 (local.get $codes))
                  (v128.load align=1 (local.get $q))))))
          (local.set $codes (i32.add (local.get $codes) (i32.const 16)))
          (local.set $q (i32.add (local.get $q) (i32.const 16)))
          (br_if $chunk (local.tee $c (i32.sub (local.get $c) (i32.const 1)))))
        ;; The 16 byte lanes summed pairwise into 4 u32 lanes, then those 4 added: the distance.
        (i32.store16
          (local.get $out)
          (local.tee $d
            (i32.add
              (i32.add
                (i32.add
                  (i32x4.extract_lane 0
                    (local.tee $acc
                      (i32x4.extadd_pairwise_i16x8_u
                        (i16x8.extadd_pairwise_i8x16_u (local.get $acc)))))
                  (i32x4.extract_lane 1 (local.get $acc)))
                (i32x4.extract_lane 2 (local.get $acc)))
              (i32x4.extract_lane 3 (local.get $acc)))))
        ;; histogram[d] += 1, the histogram starting 512 bytes past the query.
        (i32.store offset=512
          (local.tee $d (i32.add (local.get $query) (i32.shl (local.get $d) (i32.const 2))))
          (i32.add (i32.load offset=512 (local.get $d)) (i32.const 1)))
        (local.set $out (i32.add (local.get $out) (i32.const 2)))
        (br_if $row (local.tee $count (i32.sub (local.get $count) (i32.const 1))))))))
