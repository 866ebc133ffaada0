; bar_sync: conditional barriers. (1) All 96 threads (3 warps) write shared memory, meet at
; bar.sync 0 (COUNT = all threads) and read a neighbour's word from another warp. (2) Only
; the even threads take part in bar.sync 1 with COUNT 48; the odd threads are not
; participants and go on at once. Warps reach the barriers at different times.
.kernel bar_sync
.launch ctas=2 threads=96
.shared 384
.data
nbr:  .zero 768
even: .zero 768
; expect: nbr = 195 100 101 102 103 104 105 106 107 108 109 110 111 112 113 114 115 116 117 118 119 120 121 122 123 124 125 126 127 128 129 130 131 132 133 134 135 136 137 138 139 140 141 142 143 144 145 146 147 148 149 150 151 152 153 154 155 156 157 158 159 160 161 162 163 164 165 166 167 168 169 170 171 172 173 174 175 176 177 178 179 180 181 182 183 184 185 186 187 188 189 190 191 192 193 194 195 100 101 102 103 104 105 106 107 108 109 110 111 112 113 114 115 116 117 118 119 120 121 122 123 124 125 126 127 128 129 130 131 132 133 134 135 136 137 138 139 140 141 142 143 144 145 146 147 148 149 150 151 152 153 154 155 156 157 158 159 160 161 162 163 164 165 166 167 168 169 170 171 172 173 174 175 176 177 178 179 180 181 182 183 184 185 186 187 188 189 190 191 192 193 194
; expect: even = 2 0 4 0 6 0 8 0 10 0 12 0 14 0 16 0 18 0 20 0 22 0 24 0 26 0 28 0 30 0 32 0 34 0 36 0 38 0 40 0 42 0 44 0 46 0 48 0 50 0 52 0 54 0 56 0 58 0 60 0 62 0 64 0 66 0 68 0 70 0 72 0 74 0 76 0 78 0 80 0 82 0 84 0 86 0 88 0 90 0 92 0 94 0 0 0 2 0 4 0 6 0 8 0 10 0 12 0 14 0 16 0 18 0 20 0 22 0 24 0 26 0 28 0 30 0 32 0 34 0 36 0 38 0 40 0 42 0 44 0 46 0 48 0 50 0 52 0 54 0 56 0 58 0 60 0 62 0 64 0 66 0 68 0 70 0 72 0 74 0 76 0 78 0 80 0 82 0 84 0 86 0 88 0 90 0 92 0 94 0 0 0

.text
        mov     r1, %tid
        mov     r2, %gtid
        shl     r3, r1, 2
        shl     r4, r2, 2
        ; warp w spins 40*w iterations first, so the warps arrive at different times
        mov     r20, %warpid
        mul     r20, r20, 40
delay:  setp.gt p6, r20, 0
@!p6    bra     go
        sub     r20, r20, 1
        bra     delay
go:     mov     r5, %ctaid
        mul     r5, r5, 1000
        add     r5, r5, r1
        add     r5, r5, 100
        st.shared [r3], r5              ; 100 + tid + 1000*ctaid
        bar.sync 0
        add     r6, r1, 95              ; neighbour (tid + 95) mod 96
        setp.ge p0, r6, 96
@p0     sub     r6, r6, 96
        shl     r6, r6, 2
        ld.shared r7, [r6]
        mov     r8, %ctaid
        mul     r8, r8, 1000
        sub     r7, r7, r8              ; the same for both CTAs
        st.global [r4+nbr], r7
        ; conditional barrier: even threads only, COUNT 48
        and     r9, r1, 1
        setp.eq p1, r9, 0
@p1     st.shared [r3], r1
@p1     bar.sync 1, 48
        mov     r10, 0
@p1     add     r11, r1, 2              ; the next even thread's word (wrapping)
@p1     setp.ge p2, r11, 96
@p2     mov     r11, 0
@p1     shl     r11, r11, 2
@p1     ld.shared r10, [r11]
        st.global [r4+even], r10
        exit
