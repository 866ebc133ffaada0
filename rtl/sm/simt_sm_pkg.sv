// The SM core's unit interfaces: the decoded instruction, its classes, fault records, the
// sequencer's stages and the units' own states, and the small helpers every unit uses
// (docs/blocks/sm.md). Widths that depend on the core's parameters (warp and CTA indices,
// register-file addresses) stay plain ports; everything else crosses units as these types.
package simt_sm_pkg;

  /* verilator lint_off UNUSEDPARAM */

  // ---------------------------------------------------------------------------------------
  // The decoded instruction (ISA encoding, docs/isa.md): fields of the 64-bit word.
  // ---------------------------------------------------------------------------------------
  typedef struct packed {
    logic [31:0] imm;    // [63:32]
    logic [4:0]  sub;    // [31:27]
    logic [4:0]  rb;     // [26:22]
    logic [4:0]  ra;     // [21:17]
    logic [4:0]  rd;     // [16:12]
    logic [3:0]  guard;  // [11:8]: predicate and negation (applied in decode)
    logic        imm_b;  // [7]: operand b is the immediate
    logic [6:0]  op;     // [6:0]: simt_pkg::op_e (Yosys 0.23 takes no enum casts)
  } inst_t;

  // Instruction classes of an opcode.
  typedef struct packed {
    logic fpu;     // FP32: the FP unit (simt_sm_fpu), several cycles
    logic shared;  // shared-memory access
    logic cas;     // compare-and-swap (reads rc)
    logic atom;
    logic store;
    logic v4;
    logic bottom;  // critical-section bottom
    logic arrive;  // bar.sync, section tops
    logic ctrl;    // divergence-unit control instruction
    logic mem;     // load, store, atomic
    logic pred;    // writes a predicate
    logic alu;     // writes a register in one cycle
  } cls_t;

  // A fault seen by a unit ('0: none, FltNone is 0); the sequencer adds the warp and PC of
  // the instruction.
  typedef struct packed {
    logic [3:0]       cause;   // simt_pkg::fault_e (FltNone: no fault; Yosys 0.23 takes
                               // no enum of another package in a struct)
    logic             lane_v;
    logic [4:0]       lane;
    logic [31:0]      addr;
  } fault_t;

  // The sequencer's command to the control unit, every cycle (with wake_i/launch_wake_i:
  // deliver the wake token due, from IDLE or from the launch's barrier-unit step).
  typedef struct packed {
    logic exec;         // the instruction is in EXEC ...
    logic exec_fault;   // ... and faults there
    logic lsu_done;     // its memory accesses (or FP operation) are done ...
    logic lsu_fast;     // ... in the load/store unit's CHECK, from its registered state
    logic issue_ok;     // IDLE would only issue: the next warp may
    logic issue_base;   // ... if no wake token were due
    logic wake_next;    // a wake token is due before the next issue
    logic de_v;         // an instruction is in DE (a load hazard not considered: it would
                        // chain decode and the scoreboard into the control unit's requests) ...
    logic de_simple;    // ... and completes in EXEC in one cycle, or is a load or store the
                        // load/store unit may be done with in CHECK: either way the next
                        // warp may issue beside it (and waits in DE)
  } ctl_cmd_t;

  // The control unit's answer.
  typedef struct packed {
    logic busy_d;       // busy next cycle (the sequencer's CTRL), a wake commanded in this
                        // cycle (wake_i, launch_wake_i) and lsu_done left out
    logic ret_launch;   // a wake served from the launch ends: back to LAUNCH
    logic check;        // in CHECK: DE may hand its instruction on
    logic fast;         // EXEC's instruction (MEM's: lsu_fast) retires in this cycle
    logic issue_try;    // the next warp may issue in this cycle
    logic issue_due;    // a wake was taken: issue's turn next
  } ctl_status_t;

  // ---------------------------------------------------------------------------------------
  // States
  // ---------------------------------------------------------------------------------------
  // The sequencer: where the instruction after issue is (docs/blocks/sm.md). LAUNCH, MEM and
  // CTRL hand the core to a unit, whose own state says what it does.
  typedef enum logic [3:0] {
    StIdle, StLaunch, StDecode, StExec, StMem, StFpu, StCtrl, StDone, StFault
  } stage_e;

  // The launch unit: per warp take a slot (WARP, its registers read 0 from now), launch it
  // in the divergence unit (DU); then the barrier unit's count (BU) and the shared memory (SH).
  typedef enum logic [2:0] {
    LnIdle, LnWarp, LnDu, LnBu, LnSh
  } launch_state_e;

  // The load/store unit: check every lane's address (CHECK), gather a v4 store's four data
  // registers for its next line (GATHER), request lines (GLOBAL), the shared-memory unit's
  // turn (SHARED).
  typedef enum logic [2:0] {
    LsIdle, LsCheck, LsGather, LsGlobal, LsShared
  } lsu_state_e;

  // The control unit: barrier request, divergence-unit step, an exit's barrier request,
  // read-back and retire (CHECK), barrier wake delivery and its read-back.
  typedef enum logic [2:0] {
    CtIdle, CtBarReq, CtDu, CtExitBu, CtCheck, CtWake, CtWakeCheck
  } ctrl_state_e;

  // Where a wake served in the middle of a barrier request returns to.
  typedef enum logic [1:0] {
    RetNone, RetLaunch, RetBarReq, RetExitBu
  } ctrl_ret_e;

  // Copies of the instruction's immediate, one per group of 32 / ImmCopies threads, for the
  // load/store unit's address adders (decode makes them: a net each, not one of 32 adders).
  localparam int ImmCopies = 4;

  // Performance counters (docs/blocks/sm.md, "Performance counters").
  // 16-21 are the L1's and the per-warp miss rate (outside this unit's counters).
  localparam int NumPerf = 31;
  localparam int PerfCycles = 0, PerfInsts = 1, PerfThreads = 2, PerfIdle = 3,
                 PerfMemStall = 4, PerfDuStall = 5, PerfArrivals = 6, PerfWakes = 7,
                 PerfRefused = 8, PerfYields = 9, PerfPops = 10, PerfDiscards = 11,
                 PerfIdleBarrier = 12, PerfIdleQueue = 13, PerfIdleOther = 14,
                 PerfShConflict = 15, PerfIdleMem = 22, PerfWbWait = 23,
                 // Memory stalls by cause (counter 4 is every cycle a global access waits):
                 // the L1 holds a read miss with every MSHR busy, or a request behind a
                 // write/atomic to its line; the load/store unit waits for a request id, for
                 // a slot of its in-flight table, or (CHECK) for its sender; a request
                 // offered and not taken (the L1's or the port's back-pressure, whether or
                 // not a response moves: counter 4 counts only cycles where none does).
                 PerfL1MshrFull = 24, PerfL1Order = 25, PerfIdWait = 26, PerfSlotWait = 27,
                 PerfSenderWait = 28, PerfMemRefused = 29,
                 // An instruction given back from DE by the scoreboard (it issues again).
                 PerfSbBack = 30;

  /* verilator lint_on UNUSEDPARAM */

  // ---------------------------------------------------------------------------------------
  // Helpers
  // ---------------------------------------------------------------------------------------
  // Bits of cls_t, for the function below (Yosys 0.23 returns no structs from functions).
  localparam int ClsFpu = 11, ClsShared = 10, ClsCas = 9, ClsAtom = 8, ClsStore = 7, ClsV4 = 6,
                 ClsBottom = 5, ClsArrive = 4, ClsCtrl = 3, ClsMem = 2, ClsPred = 1, ClsAlu = 0;

  // The classes of an opcode, as a cls_t.
  function automatic logic [11:0] classify(logic [6:0] o);
    logic [11:0] c;
    c = '0;
    case (o)
      simt_pkg::OpAdd, simt_pkg::OpSub, simt_pkg::OpMul, simt_pkg::OpAnd, simt_pkg::OpOr,
      simt_pkg::OpXor, simt_pkg::OpShl, simt_pkg::OpShr, simt_pkg::OpSra, simt_pkg::OpMin,
      simt_pkg::OpMax, simt_pkg::OpMinu, simt_pkg::OpMaxu, simt_pkg::OpMov,
      simt_pkg::OpMovSreg, simt_pkg::OpNot, simt_pkg::OpSelp, simt_pkg::OpLdParam:
        c[ClsAlu] = 1'b1;
      simt_pkg::OpSetp, simt_pkg::OpPand, simt_pkg::OpPor, simt_pkg::OpPxor,
      simt_pkg::OpPnot:
        c[ClsPred] = 1'b1;
      simt_pkg::OpLdGlobal:      c = (12'd1 << ClsMem);
      simt_pkg::OpStGlobal:      c = (12'd1 << ClsMem) | (12'd1 << ClsStore);
      simt_pkg::OpLdShared:      c = (12'd1 << ClsMem) | (12'd1 << ClsShared);
      simt_pkg::OpStShared:      c = (12'd1 << ClsMem) | (12'd1 << ClsShared) |
                                     (12'd1 << ClsStore);
      simt_pkg::OpLdGlobalV4:    c = (12'd1 << ClsMem) | (12'd1 << ClsV4);
      simt_pkg::OpStGlobalV4:    c = (12'd1 << ClsMem) | (12'd1 << ClsV4) | (12'd1 << ClsStore);
      simt_pkg::OpAtomGlobal:    c = (12'd1 << ClsMem) | (12'd1 << ClsAtom);
      simt_pkg::OpAtomShared:    c = (12'd1 << ClsMem) | (12'd1 << ClsAtom) |
                                     (12'd1 << ClsShared);
      simt_pkg::OpAtomGlobalCas: c = (12'd1 << ClsMem) | (12'd1 << ClsAtom) | (12'd1 << ClsCas);
      simt_pkg::OpAtomSharedCas: c = (12'd1 << ClsMem) | (12'd1 << ClsAtom) | (12'd1 << ClsCas) |
                                     (12'd1 << ClsShared);
      simt_pkg::OpSsy, simt_pkg::OpSync, simt_pkg::OpPbrk, simt_pkg::OpBrk,
      simt_pkg::OpPcont, simt_pkg::OpCont, simt_pkg::OpBra, simt_pkg::OpBrx, simt_pkg::OpJmp,
      simt_pkg::OpJmx, simt_pkg::OpCal, simt_pkg::OpRet, simt_pkg::OpExit,
      simt_pkg::OpYield:
        c[ClsCtrl] = 1'b1;
      simt_pkg::OpBarSync, simt_pkg::OpBarTopOcs, simt_pkg::OpBarTopUcs:
        c[ClsArrive] = 1'b1;
      simt_pkg::OpBarBotOcs, simt_pkg::OpBarBotUcs:
        c[ClsBottom] = 1'b1;
      default: c[ClsFpu] = o >= 7'(simt_pkg::FpOpcodes) && o < 7'(simt_pkg::FpOpcodesEnd);
    endcase
    classify = c;
  endfunction

  // The divergence-unit operation of a control instruction (DuNext for any other).
  function automatic simt_pkg::du_op_e ctrl_du_op(logic [6:0] o);
    simt_pkg::du_op_e d;
    case (o)
      simt_pkg::OpSsy:   d = simt_pkg::DuSsy;
      simt_pkg::OpSync:  d = simt_pkg::DuSync;
      simt_pkg::OpPbrk:  d = simt_pkg::DuPbrk;
      simt_pkg::OpBrk:   d = simt_pkg::DuBrk;
      simt_pkg::OpPcont: d = simt_pkg::DuPcont;
      simt_pkg::OpCont:  d = simt_pkg::DuCont;
      simt_pkg::OpBra:   d = simt_pkg::DuBra;
      simt_pkg::OpBrx:   d = simt_pkg::DuBrx;
      simt_pkg::OpJmp:   d = simt_pkg::DuJmp;
      simt_pkg::OpJmx:   d = simt_pkg::DuJmx;
      simt_pkg::OpCal:   d = simt_pkg::DuCal;
      simt_pkg::OpRet:   d = simt_pkg::DuRet;
      simt_pkg::OpExit:  d = simt_pkg::DuExit;
      simt_pkg::OpYield: d = simt_pkg::DuYield;
      default:           d = simt_pkg::DuNext;
    endcase
    ctrl_du_op = d;
  endfunction

  // The word of its line a lane's access takes, from its word address (the caller keeps the
  // line's low bits): a v4 lane's 16 bytes never leave their line, so element e is word e.
  // (Assigned to its name: Yosys 0.23 takes no return statement.)
  function automatic logic [29:0] line_word(logic [29:0] waddr, logic v4, logic [1:0] elem);
    line_word = v4 ? {waddr[29:2], elem} : waddr;
  endfunction

  // The address a memory fault names, from the load/store unit's registered check answer
  // (simt_sm_lsu_check: the first bad thread's cause and element-0 address a): for a v4
  // access past the end its first element past it (the element at the last whole word that
  // fits, when a word fits), else a. Computed after the register, off the check's path.
  function automatic logic [31:0] fault_addr(logic [3:0] cause, logic [31:0] a,
                                             logic [31:0] size);
    logic [32:0] room;  // bytes from a to the end (negative: past it)
    room = {1'b0, size} - {1'b0, a};
    if ((cause == simt_pkg::FltGlobalRange || cause == simt_pkg::FltSharedRange) &&
        !room[32] && room >= 33'd4)
      fault_addr = a + {room[31:2], 2'b00};
    else
      fault_addr = a;
  endfunction

  // Lowest set bit of a lane mask (0 for none), as a tree of pairs (5 levels of 2:1 selects,
  // a node taking its lower half's index when that half has a bit set): as a chain of 32 ifs
  // its depth stayed in the netlist, ABC mapping for area at the board's clock (issue #26).
  function automatic logic [4:0] lowest(logic [31:0] m);
    logic [63:0]  any;  // node k: a bit set below it (root 1, bit j's leaf at 32 + j)
    logic [319:0] idx;  // node k's lowest set index, 5 bits
    any = {m, 32'b0};
    idx = '0;
    for (int j = 0; j < 32; j++) idx[(32 + j)*5 +: 5] = 5'(j);
    for (int k = 31; k >= 1; k--) begin
      any[k]         = any[2*k] | any[2*k + 1];
      idx[k*5 +: 5]  = any[2*k] ? idx[2*k*5 +: 5] : idx[(2*k + 1)*5 +: 5];
    end
    lowest = any[1] ? idx[5 +: 5] : 5'd0;
  endfunction

  // Groups of lanes (issue #26; docs/blocks/sm.md, "Passes"): with `lanes` physical lanes
  // (32, 16, 8: a power of two), group g is threads g*lanes .. g*lanes + lanes-1, and the
  // units visit the groups that have a thread to serve in ascending order. The rule, shared
  // by the pass sequencer and the load/store unit: the next group is the one of the lowest
  // thread still to serve (group 0 when none is). group_first gives its first thread.
  // (The mask is 32 - lanes, the high bits of a thread index: Yosys 0.23 mis-reads
  // ~5'(lanes - 1) and keeps every bit.)
  function automatic logic [4:0] group_first(logic [31:0] m, int lanes);
    group_first = lowest(m) & 5'(32 - lanes);
  endfunction

  // ... and its threads.
  function automatic logic [31:0] group_of(logic [31:0] m, int lanes);
    logic [4:0]  first;
    logic [31:0] r;
    first = group_first(m, lanes);
    for (int t = 0; t < 32; t++) r[t] = (5'(t) & 5'(32 - lanes)) == first;
    group_of = r;
  endfunction

  // ... and the threads of m in the groups after that one (m's threads still to visit once its
  // group is done; none when m has one group).
  function automatic logic [31:0] later_groups(logic [31:0] m, int lanes);
    later_groups = m & ~group_of(m, lanes);
  endfunction

  // A warp's predicates with predicate pd (0..6) of the executing lanes replaced by their
  // results (setp and the predicate operations in execute, fsetp in the FP unit).
  function automatic logic [32*7-1:0] pred_write(logic [32*7-1:0] pred, logic [31:0] exec,
                                                 logic [2:0] pd, logic [31:0] res);
    logic [32*7-1:0] p;
    p = pred;
    for (int l = 0; l < 32; l++) begin
      if (exec[l] && pd != 3'd7) p[l*7 + 32'(pd)] = res[l];
    end
    pred_write = p;
  endfunction

  function automatic logic [5:0] popcount32(logic [31:0] m);
    logic [5:0] n;
    n = '0;
    for (int i = 0; i < 32; i++) n = n + {5'd0, m[i]};
    popcount32 = n;
  endfunction

  // The register operands an instruction reads besides ra (decode's read ports, issue #26): rb
  // when something uses it (ALU, setp and FP operations without an immediate, selp, atomics:
  // the operand, cas's compare value; stores: the data; v4 stores read each element's
  // register in the load/store unit), and the sub field as a register (cas's swap value,
  // ffma's addend).
  function automatic logic reads_b(logic [6:0] op, logic imm_b);
    logic [11:0] c;
    logic        fp_b;
    c    = classify(op);
    fp_b = c[ClsFpu] && op != simt_pkg::OpFAbs && op != simt_pkg::OpFNeg &&
           op != simt_pkg::OpFSqrt &&
           (op < simt_pkg::OpFCvtS32F32 || op > simt_pkg::OpFCvtF32U32);
    reads_b = ((c[ClsAlu] || op == simt_pkg::OpSetp || fp_b) && !imm_b) ||
              op == simt_pkg::OpSelp || c[ClsAtom] || (c[ClsStore] && !c[ClsV4]);
  endfunction

  function automatic logic reads_c(logic [6:0] op);
    logic [11:0] c;
    c       = classify(op);
    reads_c = c[ClsCas] || op == simt_pkg::OpFFma;
  endfunction

  // The registers an instruction reads or writes, for the scoreboard: ra (r31 for ret), rb
  // when read (v4 stores: rb..rb+3), rc, and rd when written (v4 loads: rd..rd+3; cal: r31).
  // A superset is safe (it only waits longer). Computed when the word is written into the
  // instruction memory and stored beside it (simt_sm_issue), so that the scoreboard's check
  // of the instruction in DE starts from a RAM's output, not from decoding its word.
  /* verilator lint_off UNUSEDSIGNAL */  // (the immediate and the guard name no register)
  function automatic logic [31:0] inst_regs(logic [63:0] word);
  /* verilator lint_on UNUSEDSIGNAL */
    logic [6:0]  op;  // (the fields of inst_t, as plain slices)
    logic [4:0]  rd, ra, rb, sub;
    logic [11:0] c;
    logic [31:0] m;
    op  = word[6:0];
    rd  = word[16:12];
    ra  = word[21:17];
    rb  = word[26:22];
    sub = word[31:27];
    c   = classify(op);
    m   = '0;
    m[(op == simt_pkg::OpRet) ? 5'd31 : ra] = 1'b1;
    if (reads_b(op, word[7])) m[rb] = 1'b1;
    if (reads_c(op)) m[sub] = 1'b1;
    if (c[ClsAlu] || (c[ClsMem] && !c[ClsStore]) || c[ClsFpu]) m[rd] = 1'b1;
    if (op == simt_pkg::OpCal) m[31] = 1'b1;
    for (int e = 0; e < 4; e++) begin
      if (c[ClsV4] && c[ClsStore])  m[rb + 5'(e)] = 1'b1;
      if (c[ClsV4] && !c[ClsStore]) m[rd + 5'(e)] = 1'b1;
    end
    inst_regs = m;
  endfunction

  // Predicate i of one lane (7 = pt, always true). Fixed-index selects keep Yosys fast.
  function automatic logic pick(logic [6:0] v, logic [2:0] i);
    logic r;
    r = 1'b1;
    for (int p = 0; p < 7; p++) begin
      if (i == 3'(p)) r = v[p];
    end
    pick = r;
  endfunction

  // A fault record's cause as the enum (no enum casts in Yosys 0.23).
  function automatic simt_pkg::fault_e fault_cause(logic [3:0] c);
    simt_pkg::fault_e f;
    case (c)
      4'd1:    f = simt_pkg::FltIllegal;
      4'd2:    f = simt_pkg::FltPcRange;
      4'd3:    f = simt_pkg::FltTrap;
      4'd4:    f = simt_pkg::FltGlobalAlign;
      4'd5:    f = simt_pkg::FltGlobalRange;
      4'd6:    f = simt_pkg::FltSharedAlign;
      4'd7:    f = simt_pkg::FltSharedRange;
      4'd8:    f = simt_pkg::FltParamAlign;
      4'd9:    f = simt_pkg::FltParamRange;
      4'd10:   f = simt_pkg::FltLaunch;
      4'd11:   f = simt_pkg::FltMemError;
      default: f = simt_pkg::FltNone;
    endcase
    fault_cause = f;
  endfunction

endpackage
