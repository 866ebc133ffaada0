; memory: global, shared and param loads and stores in every addressing form, v4 vectors,
; every atomic (global and shared) applied in ascending lane order, membar.
.kernel memory
.launch ctas=1 threads=8
.param 7, src, 0x100
.shared 64
.data
src:    .word 10, 20, 30, 40, 50, 60, 70, 80
copy:   .zero 32
vec:    .zero 32
atoms:  .word 0, 100, 0, 0xFF, 0, 0, 5, 0
old:    .zero 32
casold: .zero 32
shout:  .zero 32
params: .zero 12
; expect: copy = 10 20 30 40 50 60 70 80
; expect: vec = 0 0 0 0 50 60 70 80
; expect: atoms = 28 20 27 20 7 0 6 7
; expect: old = 0 0 1 3 6 10 15 21
; expect: casold = 5 6 6 6 6 6 6 6
; expect: shout = 20 21 22 23 24 25 26 27
; expect: params = 25 7 256

.text
        mov     r1, %tid
        shl     r2, r1, 2               ; byte offset
        ld.param r3, [4]                ; &src from .param
        add     r4, r3, r2
        ld.global r5, [r4]              ; [rA]
        st.global [r2+copy], r5         ; [rA+label]
        ld.global r6, [r4-0]            ; [rA-imm]
        sub     r6, r6, r5              ; 0
        ld.global r7, [src+4]           ; [label+number]
        add     r6, r6, r7              ; 20
        st.shared [r2], r6              ; shared, per CTA
        membar
        xor     r8, r2, 28              ; reverse order
        ld.shared r9, [r8]
        add     r9, r9, r1              ; 20 + tid
        st.global [r2+shout], r9
        ; atomics, all lanes on one word each: lane order decides the old values
        atom.global.add r10, [atoms+0], r1
        st.global [r2+old], r10
        atom.global.min r10, [atoms+4], r9
        atom.global.max r10, [atoms+8], r9
        atom.global.and r10, [atoms+12], r6   ; 0xFF & 20
        atom.global.or  r10, [atoms+16], r1
        atom.global.xor r10, [atoms+20], r1
        mov     r11, 5
        add     r12, r1, 6
        atom.global.cas r10, [atoms+24], r11, r12   ; only lane 0 sees 5
        st.global [r2+casold], r10
        atom.global.exch r10, [atoms+28], r1
        ; shared atomics
        st.shared [32], r0
        mov     r17, 3
        atom.shared.add r13, [32], r17
        atom.shared.cas r14, [36], r0, r1   ; word 36 is 0: lane 0 writes 0, lane 1 writes 1
        ld.shared r15, [36]
        ld.shared r16, [32]
        add     r16, r16, r15           ; 24 + 1
        setp.eq p0, r1, 7
@p0     st.global [params+0], r16
        ; v4: thread 0 moves 4 words with one instruction
        setp.eq p1, r1, 0
@p1     ld.global.v4 r20, [src+16]
@p1     st.global.v4 [vec+16], r20
        ld.param r21, [0]
        ld.param r22, [8]
@p0     st.global [params+4], r21
@p0     st.global [params+8], r22
        exit
