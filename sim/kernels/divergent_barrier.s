; divergent_barrier: threads of one warp take different paths of an if/else and meet at one
; barrier without reconverging first. The first path to arrive sleeps (reason BARRIER), its
; warp pops the other path's token and runs it; the last arrival completes the barrier and
; one BARRIER token resumes both paths together. Data written before the barrier by one path
; is read after it by the other. Three warps, two CTAs.
.kernel divergent_barrier
.launch ctas=2 threads=96
.shared 384
.data
out: .zero 768
; expect: out = 1001 0 1003 20 1005 40 1007 60 1009 80 1011 100 1013 120 1015 140 1017 160 1019 180 1021 200 1023 220 1025 240 1027 260 1029 280 1031 300 1033 320 1035 340 1037 360 1039 380 1041 400 1043 420 1045 440 1047 460 1049 480 1051 500 1053 520 1055 540 1057 560 1059 580 1061 600 1063 620 1065 640 1067 660 1069 680 1071 700 1073 720 1075 740 1077 760 1079 780 1081 800 1083 820 1085 840 1087 860 1089 880 1091 900 1093 920 1095 940 1001 0 1003 20 1005 40 1007 60 1009 80 1011 100 1013 120 1015 140 1017 160 1019 180 1021 200 1023 220 1025 240 1027 260 1029 280 1031 300 1033 320 1035 340 1037 360 1039 380 1041 400 1043 420 1045 440 1047 460 1049 480 1051 500 1053 520 1055 540 1057 560 1059 580 1061 600 1063 620 1065 640 1067 660 1069 680 1071 700 1073 720 1075 740 1077 760 1079 780 1081 800 1083 820 1085 840 1087 860 1089 880 1091 900 1093 920 1095 940

.text
        mov     r1, %tid
        shl     r9, r1, 2
        mov     r2, %gtid
        shl     r8, r2, 2
        and     r3, r1, 1
        setp.eq p0, r3, 1
@p0     bra     odd
        mul     r4, r1, 10              ; even path: 10*tid
        st.shared [r9], r4
        jmp     meet
odd:    mov     r20, 20                 ; odd path: some extra work first
spin:   sub     r20, r20, 1
        setp.gt p6, r20, 0
@p6     bra     spin
        add     r4, r1, 1000            ; 1000 + tid
        st.shared [r9], r4
meet:   bar.sync 0                      ; both paths, one instruction
        xor     r5, r9, 4               ; partner on the other path (tid ^ 1)
        ld.shared r6, [r5]
        st.global [r8+out], r6
        exit
