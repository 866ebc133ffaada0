; bar_priority: the slot arbiter's priority per barrier id (seed 000 [0108]). Lane 0 of warp 0
; holds critical section 0 for a while; meanwhile lane 0 of warp 1 queues at section 1 and
; lane 0 of warp 2, later, at section 2. When section 0 ends the arbiter grants one of the two
; waiting sections: with equal priorities (the default) round robin from the slot just served
; takes section 1 first; with `--barrier-priority 2=3` section 2 overtakes it. Each section
; draws a ticket from a counter: order[w] is warp w's ticket.
.kernel bar_priority
.launch ctas=1 threads=96
.data
ticket: .word 0
order:  .zero 12
; expect: order = 0 1 2
; policies: lrr gto

.text
        mov     r1, %laneid
        setp.eq p0, r1, 0               ; lane 0 of each warp takes part
        mov     r20, %warpid
        shl     r21, r20, 2
        mov     r2, 1
        setp.eq p1, r20, 0
@p1     bra     w0
        mul     r22, r20, 40            ; warp 1 waits 40 iterations, warp 2 80
delay:  setp.gt p2, r22, 0
@!p2    bra     go
        sub     r22, r22, 1
        bra     delay
go:     setp.eq p3, r20, 1
@p3     bra     s1
@p0     bar.top.ocs 2, 1
@p0     atom.global.add r5, [ticket], r2
@p0     st.global [r21+order], r5
@p0     bar.bot.ocs 2
        exit
s1:
@p0     bar.top.ocs 1, 1
@p0     atom.global.add r5, [ticket], r2
@p0     st.global [r21+order], r5
@p0     bar.bot.ocs 1
        exit
w0:
@p0     bar.top.ocs 0, 1
@p0     atom.global.add r5, [ticket], r2
@p0     st.global [r21+order], r5
        mov     r22, 400                ; hold section 0 until both others have queued
hold:   setp.gt p2, r22, 0
@!p2    bra     out
        sub     r22, r22, 1
        bra     hold
out:
@p0     bar.bot.ocs 0
        exit
