; hash_table: concurrent insertion into a chained hash table with one spin lock per bucket
; (8 buckets, 128 keys from 4 warps in 2 CTAs). Each thread locks its key's bucket
; (CAS spin with `yield` on the blocking back-edge), pushes its node on the bucket's list and
; unlocks. The loop's reconvergence point (ssy) is where a stack machine parks the lock
; winners behind the spinning losers of the same warp: the stack baseline never finishes.
.kernel hash_table
.launch ctas=2 threads=64
.data
locks: .zero 32
heads: .zero 32
next:  .zero 516                        ; node n = gtid+1 (0 ends a list)
keys:  .zero 516
; check deque: hash_table
; expect deque: locks = 0 0 0 0 0 0 0 0
; expect stack: status timeout|deadlock
; max-cycles: 200000

.text
        mov     r1, %gtid
        mul     r2, r1, 37
        add     r2, r2, 11
        and     r2, r2, 127             ; key: a permutation of 0..127
        add     r3, r1, 1               ; node
        shl     r4, r3, 2
        st.global [r4+keys], r2
        and     r5, r2, 7
        shl     r5, r5, 2               ; bucket byte offset
        add     r6, r5, locks           ; &locks[bucket]
        mov     r7, 0
        mov     r8, 1
        ssy     locked
spin:   atom.global.cas r9, [r6], r7, r8
        setp.ne p0, r9, 0               ; p0: lock busy
@p0     yield
@p0     bra     spin
        sync    locked
locked: ld.global r10, [r5+heads]
        st.global [r4+next], r10
        st.global [r5+heads], r3
        membar
        atom.global.exch r11, [r6], r7  ; unlock
        exit
