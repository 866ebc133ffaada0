; bar_exclusive: exclusive ordered critical sections (bar.top.ocs.ex) in three CTAs at once.
; Each thread counts itself in and out of the section with atomics and records the most
; threads it ever saw inside: with .ex no other critical section of any CTA runs meanwhile,
; so the maximum is 1. A second, unordered exclusive section (another id) runs afterwards.
.kernel bar_exclusive
.launch ctas=3 threads=32
.data
inside: .word 0
maxin:  .word 0
total:  .word 0
; expect: maxin = 1
; expect: total = 192
; expect: inside = 0

.text
        mov     r2, 1
        mov     r3, -1
        bar.top.ocs.ex 4
        atom.global.add r4, [inside], r2
        add     r4, r4, 1
        atom.global.max r5, [maxin], r4
        mov     r20, 5                  ; stay inside a while
d1:     sub     r20, r20, 1
        setp.gt p6, r20, 0
@p6     bra     d1
        atom.global.add r4, [inside], r3
        atom.global.add r4, [total], r2
        bar.bot.ocs 4
        bar.top.ucs.ex 5
        atom.global.add r4, [inside], r2
        add     r4, r4, 1
        atom.global.max r5, [maxin], r4
        atom.global.add r4, [inside], r3
        atom.global.add r4, [total], r2
        bar.bot.ucs.nb 5
        exit
