; loops: a divergent loop with continue and break (pcont/cont, pbrk/brk), nested in a
; divergent if. Thread t sums i = 0..t-1, skipping multiples of 3 (continue) and leaving the
; loop once the sum exceeds 40 (break); odd threads double the result afterwards.
.kernel loops
.launch ctas=1 threads=32
.data
out:   .zero 128
iters: .zero 128
; expect: out = 0 0 1 6 3 14 12 24 19 54 27 74 48 96 48 96 48 96 48 96 48 96 48 96 48 96 48 96 48 96 48 96
; expect: iters = 0 1 2 3 4 5 6 7 8 9 10 11 12 12 12 12 12 12 12 12 12 12 12 12 12 12 12 12 12 12 12 12

.text
        mov     r1, %tid
        mov     r2, 0                   ; i
        mov     r3, 0                   ; sum
        mov     r4, 0                   ; iterations entered
        pbrk    done
loop:   setp.ge p0, r2, r1
@p0     brk                             ; i == t: leave the loop
        pcont   next
        add     r4, r4, 1
        mov     r5, 3
        ; i % 3 == 0 -> continue (i - 3*(i/3) computed by repeated subtraction)
        mov     r6, r2
mod:    setp.lt p1, r6, 3
@p1     bra     mod_done
        sub     r6, r6, 3
        bra     mod
mod_done:
        setp.eq p2, r6, 0
@p2     cont                            ; skip the add
        add     r3, r3, r2
        setp.gt p3, r3, 40
@p3     brk                             ; early exit
        cont
next:   add     r2, r2, 1
        bra     loop
done:   and     r7, r1, 1
        setp.eq p4, r7, 1
        ssy     store
@p4     bra     odd
        sync    store
odd:    shl     r3, r3, 1
        sync    store
store:  shl     r8, r1, 2
        st.global [r8+out], r3
        st.global [r8+iters], r4
        exit
