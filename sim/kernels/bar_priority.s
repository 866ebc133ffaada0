; bar_priority: the slot arbiter's priority per barrier id (seed 000 [0108]). Lane 0 of warp 0
; holds the exclusive critical section 0 for a while, so no other section may take a slot
; (seed 0105); meanwhile warp 1 diverges: lane 0 queues at section 1, lane 1 at section 2.
; When section 0 ends both enter slots and the arbiter grants them one after the other, and
; each woken lane draws a ticket from a counter: order[w] is the ticket of section w's thread.
; With equal priorities (the default) the round robin from the slot just served (slot 0)
; grants slot 1 first, which holds section 2 (it queued second); with
; `--barrier-priority 1=3` section 1 goes first. Under gto the model engine (no pipeline)
; runs warp 0's hold loop before warp 1 queues at all, so the kernel runs under lrr only.
.kernel bar_priority
.launch ctas=1 threads=64
.data
ticket: .word 0
order:  .zero 12
; expect: order = 0 2 1
; policies: lrr

.text
        mov     r1, %laneid
        mov     r20, %warpid
        mov     r2, 1
        setp.eq p1, r20, 0
@p1     bra     w0
        setp.eq p0, r1, 0
@p0     bra     s1
        setp.eq p0, r1, 1
@!p0    exit
        bar.top.ocs 2, 1
        atom.global.add r5, [ticket], r2
        st.global [order+8], r5
        bar.bot.ocs 2
        exit
s1:     bar.top.ocs 1, 1
        atom.global.add r5, [ticket], r2
        st.global [order+4], r5
        bar.bot.ocs 1
        exit
w0:     setp.eq p0, r1, 0
@!p0    exit
        bar.top.ocs.ex 0, 1
        atom.global.add r5, [ticket], r2
        st.global [order], r5
        mov     r22, 400                ; hold section 0 until both others have queued
hold:   setp.gt p2, r22, 0
@!p2    bra     out
        sub     r22, r22, 1
        bra     hold
out:    bar.bot.ocs 0
        exit
