; atm: ATM transfers between 16 accounts, each thread moving money from one account to
; another under two spin locks taken in ascending account order (no lock-order deadlock).
; 128 transfers from 4 warps in 2 CTAs; `yield` on each blocking back-edge. Balances must
; match the sequential result and the total must be conserved; the stack baseline parks the
; winners of the first lock behind the spinning losers and never finishes.
.kernel atm
.launch ctas=2 threads=64
.data
locks:   .zero 64
balance: .word 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000
         .word 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000
done:    .word 0
; expect deque: locks = 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0
; expect deque: done = 128
; expect deque: balance = 1008 1040 1008 976 1008 976 1008 976 1008 1040 1008 976 1008 976 1008 976
; expect stack: status timeout|deadlock
; max-cycles: 300000

.text
        mov     r1, %gtid
        and     r2, r1, 15              ; from = g % 16
        mul     r3, r1, 5
        add     r3, r3, 3
        and     r3, r3, 15              ; to = (5g + 3) % 16
        setp.eq p1, r2, r3
@p1     add     r3, r3, 1
@p1     and     r3, r3, 15              ; from != to
        and     r4, r1, 7               ; amount = g % 8 + 1
        add     r4, r4, 1
        minu    r5, r2, r3              ; lock order: lower account first
        maxu    r6, r2, r3
        shl     r5, r5, 2
        shl     r6, r6, 2
        mov     r7, 0
        mov     r8, 1
        ssy     got_first
spin1:  atom.global.cas r9, [r5+locks], r7, r8
        setp.ne p0, r9, 0
@p0     yield
@p0     bra     spin1
        sync    got_first
got_first:
        ssy     got_both
spin2:  atom.global.cas r9, [r6+locks], r7, r8
        setp.ne p0, r9, 0
@p0     yield
@p0     bra     spin2
        sync    got_both
got_both:
        shl     r10, r2, 2
        shl     r11, r3, 2
        ld.global r12, [r10+balance]
        sub     r12, r12, r4
        st.global [r10+balance], r12
        ld.global r13, [r11+balance]
        add     r13, r13, r4
        st.global [r11+balance], r13
        membar
        atom.global.exch r9, [r6+locks], r7
        atom.global.exch r9, [r5+locks], r7
        atom.global.add r9, [done], r8
        exit
