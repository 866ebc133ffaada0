; v4_stream: 64 threads (2 warps) write a table of 512 uint4 elements with st.global.v4
; (element e holds words 4e .. 4e+3), then each sums the other warp's elements with
; ld.global.v4 in a loop reusing its registers, so a full warp's v4 load after the first
; goes through the load/store unit's v4 drain (its lines written to the registers side by
; side, docs/blocks/sm.md); each thread's four sums are stored with st.global.v4 and added
; to the total with one atomic. The co-simulation compares every register write.
.kernel v4_stream
.launch ctas=1 threads=64
.data
tab:   .zero 8192
sums:  .zero 1024
total: .zero 4
; expect: total = 2096128
.text
        mov     r1, %tid
        mov     r2, 0                   ; k: this thread writes element k*64 + tid
wr:     shl     r3, r2, 6
        add     r3, r3, r1              ; e
        shl     r4, r3, 2               ; 4e
        add     r5, r4, 1
        add     r6, r4, 2
        add     r7, r4, 3
        shl     r8, r3, 4               ; byte offset of element e
        st.global.v4 [r8+tab], r4
        add     r2, r2, 1
        setp.lt p0, r2, 8
@p0     bra     wr
        bar.sync 0
        add     r9, r1, 32              ; the other warp's thread
        and     r9, r9, 63
        mov     r10, 0                  ; four sums
        mov     r11, 0
        mov     r12, 0
        mov     r13, 0
        mov     r2, 0
rd:     shl     r3, r2, 6
        add     r3, r3, r9
        shl     r8, r3, 4
        ld.global.v4 r20, [r8+tab]
        add     r10, r10, r20
        add     r11, r11, r21
        add     r12, r12, r22
        add     r13, r13, r23
        add     r2, r2, 1
        setp.lt p0, r2, 8
@p0     bra     rd
        shl     r8, r1, 4
        st.global.v4 [r8+sums], r10
        add     r14, r10, r11
        add     r14, r14, r12
        add     r14, r14, r13
        atom.global.add r15, [total], r14
        exit
