; reduce: the sum of 256 words, a tree in shared memory per work-group of 64 threads (a
; barrier per level), the group's sum stored and added to the total with one atomic: the
; hand-written form of tb/compiler/kernels/reduce_local.cl, for the compiler's code-quality
; figures (docs/compiler.md, "Figures").
.kernel reduce
.launch ctas=4 threads=64
.shared 256
.data
in:  .word 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16
    .word 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32
    .word 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48
    .word 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63, 64
    .word 65, 66, 67, 68, 69, 70, 71, 72, 73, 74, 75, 76, 77, 78, 79, 80
    .word 81, 82, 83, 84, 85, 86, 87, 88, 89, 90, 91, 92, 93, 94, 95, 96
    .word 97, 98, 99, 100, 101, 102, 103, 104, 105, 106, 107, 108, 109, 110, 111, 112
    .word 113, 114, 115, 116, 117, 118, 119, 120, 121, 122, 123, 124, 125, 126, 127, 128
    .word 129, 130, 131, 132, 133, 134, 135, 136, 137, 138, 139, 140, 141, 142, 143, 144
    .word 145, 146, 147, 148, 149, 150, 151, 152, 153, 154, 155, 156, 157, 158, 159, 160
    .word 161, 162, 163, 164, 165, 166, 167, 168, 169, 170, 171, 172, 173, 174, 175, 176
    .word 177, 178, 179, 180, 181, 182, 183, 184, 185, 186, 187, 188, 189, 190, 191, 192
    .word 193, 194, 195, 196, 197, 198, 199, 200, 201, 202, 203, 204, 205, 206, 207, 208
    .word 209, 210, 211, 212, 213, 214, 215, 216, 217, 218, 219, 220, 221, 222, 223, 224
    .word 225, 226, 227, 228, 229, 230, 231, 232, 233, 234, 235, 236, 237, 238, 239, 240
    .word 241, 242, 243, 244, 245, 246, 247, 248, 249, 250, 251, 252, 253, 254, 255, 256
partial: .zero 16
total:   .zero 4
; expect: partial = 2080 6176 10272 14368
; expect: total = 32896

.text
        mov     r1, %tid
        mov     r2, %gtid
        shl     r3, r2, 2
        ld.global r4, [r3+in]
        shl     r5, r1, 2               ; this thread's slot
        st.shared [r5], r4
        bar.sync 0
        mov     r6, 32                  ; s: half the threads
level:  setp.lt p0, r1, r6              ; threads below s add slot + s
        ssy     joined
@p0     bra     sum
        sync    joined
sum:    shl     r7, r6, 2
        add     r7, r7, r5
        ld.shared r8, [r7]
        ld.shared r9, [r5]
        add     r9, r9, r8
        st.shared [r5], r9
        sync    joined
joined: bar.sync 0
        shr     r6, r6, 1
        setp.ne p1, r6, 0
@p1     bra     level
        setp.ne p2, r1, 0
@p2     exit                            ; thread 0 of the group goes on
        ld.shared r10, [r5]
        mov     r11, %ctaid
        shl     r11, r11, 2
        st.global [r11+partial], r10
        atom.global.add r12, [total], r10
        exit
