// The SM core: instruction memory and fetch, decode, the warp scheduler, a register file in
// per-lane RAM banks, 32 ALU lanes, a load/store unit (global and param over a valid/ready
// port, on-chip shared memory), the divergence unit, the barrier unit with its thread select
// and thread state, CTA launch, fault reporting and performance counters.
//
// One instruction per warp is in flight (docs/blocks/sm.md): issue (the scheduler picks a
// warp, the core fetches), decode (ra and rb from the register file's two read ports) and
// execute overlap for different warps, so simple instructions retire one per cycle. Execution
// is on all lanes at once or, for memory, lane by lane in ascending lane order (ISA.md); the
// instruction's control behaviour goes to the divergence unit (pc + 1 for plain
// instructions). Memory, control and barrier instructions are sequenced by one FSM around
// the same stages. Barrier instructions go to the barrier unit first; its wake tokens become
// divergence-unit requests between instructions (ARCHITECTURE.md's rule: a thread waits only
// in its warp's token queue).
//
// The host loads code and params through write ports, sets the launch through cfg_* (stable
// while running) and pulses start_i. The core launches CTAs in %ctaid order onto the lowest
// free warp slots as the ISA model does, and raises done_o when all have finished or fault_o
// with a cause, warp, pc, lane and address. Token-queue overflows raise exc_valid_o; the
// runtime re-centres the queue through the mnt_* port (seed 002).
module simt_sm #(
  parameter int NumWarps    = simt_pkg::NumWarps,
  parameter int NumCtas     = simt_pkg::NumCtas,     // resident CTAs
  parameter int QueueDepth  = simt_pkg::QueueDepth,
  parameter bit DequeMode   = 1'b1,
  parameter int NumBarSlots = simt_pkg::NumBarSlots,
  parameter int ImemDepth   = 1024,                  // 64-bit instructions
  parameter int ParamWords  = 64,
  parameter int SharedWords = 1024,                  // 32-bit words per resident CTA
  localparam int WarpW      = (NumWarps > 1) ? $clog2(NumWarps) : 1,
  localparam int CtaW       = (NumCtas > 1) ? $clog2(NumCtas) : 1,
  localparam int ImemAW     = $clog2(ImemDepth),
  localparam int ParamAW    = $clog2(ParamWords),
  localparam int ShAW       = $clog2(NumCtas * SharedWords),
  localparam int RfAW       = WarpW + 5,
  localparam int PtrW       = $clog2(QueueDepth + 1),
  localparam int NumEnt     = NumCtas * 16,
  localparam int AddrW      = 22                     // instruction addresses (token field)
) (
  input  logic                     clk_i,
  input  logic                     rst_ni,

  // Host: code and params, launch configuration, start.
  input  logic                     imem_we_i,
  input  logic [ImemAW-1:0]        imem_waddr_i,
  input  logic [63:0]              imem_wdata_i,
  input  logic                     param_we_i,
  input  logic [ParamAW-1:0]       param_waddr_i,
  input  logic [31:0]              param_wdata_i,
  input  logic [ImemAW:0]          cfg_code_size_i,     // instructions loaded
  input  logic [ParamAW:0]         cfg_param_words_i,
  input  logic [15:0]              cfg_ntid_i,          // threads per CTA
  input  logic [15:0]              cfg_nctaid_i,        // CTAs in the grid
  input  logic [31:0]              cfg_global_bytes_i,  // size of global memory
  input  logic [31:0]              cfg_shared_bytes_i,  // .shared per CTA
  input  logic                     cfg_stack_i,         // divergence: stack baseline
  input  logic [15:0]              cfg_lfsr_seed_i,     // yield.p LFSR seed (--seed), loaded at start
  input  simt_pkg::sched_policy_e  cfg_policy_i,
  input  logic [15:0]              cfg_static_limit_i,  // barrier static-too-long limit
  input  logic [1:0]               cfg_tmo_origin_i,    // impatient TIMEOUT origin (0: ISA.md's)
  input  logic [31:0]              cfg_bar_prio_i,      // slot-arbiter priority of id i at [2i+1:2i]
  input  logic                     start_i,
  output logic                     busy_o,
  output logic                     done_o,
  output logic                     fault_o,
  output simt_pkg::fault_e         fault_cause_o,
  output logic [WarpW-1:0]         fault_warp_o,
  output logic [AddrW-1:0]         fault_pc_o,
  output logic                     fault_lane_valid_o,
  output logic [4:0]               fault_lane_o,
  output logic [31:0]              fault_addr_o,

  // Global memory (and nothing else): one request at a time, one response per request.
  output logic                     mem_req_valid_o,
  input  logic                     mem_req_ready_i,
  output logic                     mem_req_we_o,
  output logic [31:0]              mem_req_addr_o,      // byte address, word aligned
  output logic [31:0]              mem_req_wdata_o,
  input  logic                     mem_rsp_valid_i,
  input  logic [31:0]              mem_rsp_rdata_i,

  // Token-queue exception and the runtime's maintenance port (simt_divergence_unit).
  output logic                     exc_valid_o,
  output logic [WarpW-1:0]         exc_warp_o,
  output logic                     exc_back_o,
  output logic [PtrW-1:0]          q_head_o,
  output logic [PtrW-1:0]          q_tail_o,
  input  logic                     mnt_valid_i,
  input  simt_pkg::mnt_op_e        mnt_op_i,
  input  logic [WarpW-1:0]         mnt_warp_i,
  input  logic [PtrW-2:0]          mnt_idx_i,
  input  logic [63:0]              mnt_wdata_i,
  input  logic [PtrW-1:0]          mnt_head_i,
  input  logic [PtrW-1:0]          mnt_tail_i,
  output logic                     mnt_ready_o,
  output logic                     mnt_rvalid_o,
  output logic [63:0]              mnt_rdata_o,

  // Retired instructions (one per issue; the co-simulation and trace follow them).
  output logic                     retire_valid_o,
  output logic [WarpW-1:0]         retire_warp_o,
  output logic [AddrW-1:0]         retire_pc_o,
  output logic [31:0]              retire_exec_o,
  output logic [31:0]              retire_active_o,
  // Trace for the co-simulation: register-file writes of the instruction in flight, and
  // barrier wake tokens as the divergence unit takes them.
  output logic                     trace_inflight_o,
  output logic [31:0]              trace_rf_we_o,
  output logic [RfAW-1:0]          trace_rf_waddr_o,
  output logic [32*32-1:0]         trace_rf_wdata_o,
  output logic                     trace_wake_o,
  output logic [WarpW-1:0]         trace_wake_warp_o,
  output logic [31:0]              trace_wake_mask_o,
  output logic [AddrW-1:0]         trace_wake_resume_o,
  output logic                     trace_wake_late_o,   // served during an exit's barrier
                                                        // request: after the exit's DU step
  // ... an arrival the barrier unit accepted (its timeout origin), and a portion the unit
  // started because its TIMEOUT elapsed: a warp slot of the CTA and the barrier id.
  output logic                     trace_bar_accept_o,
  output logic                     trace_tmo_o,
  output logic [WarpW-1:0]         trace_tmo_warp_o,
  output logic [3:0]               trace_tmo_id_o,
  // ... any request the unit took for the instruction in flight (arrive, bottom, reset,
  // exit), and a critical section the slot arbiter granted (the choice the model follows).
  output logic                     trace_bu_req_o,
  output logic                     trace_grant_o,
  output logic [WarpW-1:0]         trace_grant_warp_o,
  output logic [3:0]               trace_grant_id_o,
  // A CTA launch starts: the warp slot its first warp takes (the core's placement, which
  // depends on when it retires finished CTAs; the model follows it).
  output logic                     trace_launch_o,
  output logic [WarpW-1:0]         trace_launch_warp_o,

  // Debug view of one warp (valid while the core is idle, done or faulted) and status.
  input  logic [WarpW-1:0]         dbg_warp_i,
  output logic                     dbg_resident_o,
  output logic                     dbg_done_o,
  output logic                     dbg_held_o,          // refused by a busy barrier id
  output logic [15:0]              dbg_ctaid_o,
  output logic [WarpW-1:0]         dbg_warp_in_cta_o,
  output logic [AddrW-1:0]         dbg_pc_o,
  output logic [31:0]              dbg_active_o,
  output logic [127:0]             dbg_reason_o,
  output logic [PtrW-1:0]          dbg_q_count_o,
  output logic                     quiet_o,             // idle and nothing can issue
  output logic [NumEnt-1:0]        bar_busy_o,
  output logic [NumEnt-1:0]        bar_static_long_o,
  output logic [NumEnt-1:0]        bar_sec_active_o,    // critical section queued or in service
  output logic [NumEnt-1:0]        bar_sec_queued_o,    // ... waiting for a slot grant
  output logic [NumEnt-1:0]        bar_sec_excl_o,      // ... exclusive

  // Performance counters, selected by number (docs/blocks/sm.md, "Performance counters").
  input  logic [3:0]               perf_sel_i,
  output logic [31:0]              perf_o
);

  // Counters in the FSM's array; 10 and 11 (token pops, discards) are counted below.
  localparam int NumPerf = 15;

  typedef enum logic [4:0] {
    StIdle, StLaunchWarp, StLaunchClr, StLaunchDu, StLaunchBu, StLaunchSh,
    StDecode, StReadB, StReadC, StExec,
    StMemLane, StMemData, StMemReq, StMemRsp, StAtomReq, StAtomRsp, StShData,
    StBarReq, StDu, StExitBu, StCheck, StWake, StWakeCheck, StDone, StFault
  } state_e;

  // ---------------------------------------------------------------------------------------
  // Architectural and control state
  // ---------------------------------------------------------------------------------------
  state_e                state_d, state_q;
  logic                  started_d, started_q;
  logic [15:0]           next_cta_d, next_cta_q;     // next %ctaid to launch
  logic [15:0]           finished_d, finished_q;     // CTAs finished
  logic [31:0]           cycle_d, cycle_q;           // %clock, from start

  // Per warp slot
  logic [NumWarps-1:0]   resident_d, resident_q;
  logic [NumWarps-1:0]   wdone_d, wdone_q;           // nothing left to run
  logic [NumWarps-1:0]   wactive_d, wactive_q;       // has active threads
  logic [NumWarps-1:0]   held_d, held_q;             // refused by a barrier id busy elsewhere
  logic [3:0]            held_id_d [NumWarps];       // ... its barrier instruction's id
  logic [3:0]            held_id_q [NumWarps];
  logic [AddrW-1:0]      held_pc_d [NumWarps];       // ... and PC (the tag)
  logic [AddrW-1:0]      held_pc_q [NumWarps];
  logic [CtaW-1:0]       wcta_d [NumWarps];          // resident CTA index
  logic [CtaW-1:0]       wcta_q [NumWarps];
  logic [WarpW-1:0]      wic_d [NumWarps];           // warp index in its CTA
  logic [WarpW-1:0]      wic_q [NumWarps];
  logic [15:0]           wctaid_d [NumWarps];        // %ctaid
  logic [15:0]           wctaid_q [NumWarps];
  logic [32*7-1:0]       pred_d [NumWarps];          // p0..p6 of lane l at [l*7 +: 7]
  logic [32*7-1:0]       pred_q [NumWarps];

  // Per resident CTA
  logic [NumCtas-1:0]    cvalid_d, cvalid_q;
  logic [15:0]           cid_d [NumCtas];
  logic [15:0]           cid_q [NumCtas];
  logic [WarpW-1:0]      slot_of_d [NumCtas*NumWarps];  // (CTA, warp in CTA) -> warp slot
  logic [WarpW-1:0]      slot_of_q [NumCtas*NumWarps];

  // The instruction in flight
  logic [WarpW-1:0]      w_d, w_q;
  logic [AddrW-1:0]      pc_d, pc_q;
  logic [63:0]           ir_d, ir_q;
  logic [31:0]           active_d, active_q;
  logic [31:0]           guard_d, guard_q;
  logic [32*32-1:0]      opa_d, opa_q;               // per lane: ra (ret: r31)
  logic [32*32-1:0]      opb_d, opb_q;               // rb
  logic [32*32-1:0]      opc_d, opc_q;               // the sub field as a register (cas rc)
  // The operand read last is used straight from the register file's read data in EXEC (one
  // cycle saved) and latched there for the states after it.
  logic                  fwd_a_d, fwd_a_q, fwd_b_d, fwd_b_q;
  logic [32*32-1:0]      opa, opb;
  assign opa = fwd_a_q ? rf_rdata : opa_q;
  assign opb = fwd_b_q ? rf_rdata_b : opb_q;
  // The instruction being decoded (DE) next to the one in EXEC: issued last cycle, its
  // instruction word is the instruction memory's read data this cycle.
  logic                  de_v_d, de_v_q;
  logic [WarpW-1:0]      de_w_d, de_w_q;
  logic [AddrW-1:0]      de_pc_d, de_pc_q;
  logic [31:0]           de_active_d, de_active_q;
  simt_pkg::du_op_e      du_op_d, du_op_q;
  logic [31:0]           du_guard_d, du_guard_q;
  logic                  bu_exit_d, bu_exit_q;       // exit: tell the barrier unit afterwards
  logic                  counted_d, counted_q;       // counts as an issued instruction

  // Load/store sequencing
  logic [31:0]           mrem_d, mrem_q;             // lanes still to serve
  logic [4:0]            mlane_d, mlane_q;
  logic [1:0]            melem_d, melem_q;           // v4 element
  logic [31:0]           maddr_d, maddr_q;
  logic [31:0]           mdata_d, mdata_q;           // store data / atomic operand
  logic [31:0]           mnew_d, mnew_q;             // atomic: the word to write back

  // Launch sequencing
  logic [CtaW-1:0]       lcta_d, lcta_q;             // resident index being launched
  logic [WarpW-1:0]      lwarp_d, lwarp_q;           // warp in CTA
  logic [WarpW-1:0]      lslot_d, lslot_q;
  logic [ShAW:0]         lcnt_d, lcnt_q;             // register / shared clear counter

  logic                  wake_ret_d, wake_ret_q;     // a wake served during a barrier request
  state_e                ret_state_d, ret_state_q;   // ... and the state to go back to
  logic [WarpW-1:0]      wake_w_d, wake_w_q;
  logic [WarpW-1:0]      wake_slot;                  // the slot of the wake token offered

  // Fault
  simt_pkg::fault_e      fcause_d, fcause_q;
  logic [WarpW-1:0]      fwarp_d, fwarp_q;
  logic [AddrW-1:0]      fpc_d, fpc_q;
  logic                  flane_v_d, flane_v_q;
  logic [4:0]            flane_d, flane_q;
  logic [31:0]           faddr_d, faddr_q;

  logic [31:0]           perf_d [NumPerf];
  logic [31:0]           perf_q [NumPerf];

  // ---------------------------------------------------------------------------------------
  // Decoded instruction fields: of the instruction in EXEC and after (ir_q), and of the one
  // in DE (the instruction memory's read data)
  // ---------------------------------------------------------------------------------------
  /* verilator lint_off UNUSEDSIGNAL */
  logic [63:0]           ir;      // the guard (bits 11:8) was applied in DE (guard_q)
  /* verilator lint_on UNUSEDSIGNAL */
  logic [6:0]            op;      // simt_pkg::op_e (Yosys 0.23 takes no enum casts)
  logic                  imm_b;
  logic [4:0]            f_rd, f_ra, f_rb, f_sub;
  logic [31:0]           imm;
  logic [63:0]           imem_rdata;

  assign ir     = ir_q;
  assign op     = ir[6:0];
  assign imm_b  = ir[7];
  assign f_rd   = ir[16:12];
  assign f_ra   = ir[21:17];
  assign f_rb   = ir[26:22];
  assign f_sub  = ir[31:27];
  assign imm    = ir[63:32];

  // Instruction classes of an opcode, as {shared, cas, atom, store, v4, bottom, arrive,
  // ctrl, mem, pred, alu}.
  function automatic logic [10:0] classify(logic [6:0] o);
    logic [10:0] c;
    c = '0;
    case (o)
      simt_pkg::OpAdd, simt_pkg::OpSub, simt_pkg::OpMul, simt_pkg::OpAnd, simt_pkg::OpOr,
      simt_pkg::OpXor, simt_pkg::OpShl, simt_pkg::OpShr, simt_pkg::OpSra, simt_pkg::OpMin,
      simt_pkg::OpMax, simt_pkg::OpMinu, simt_pkg::OpMaxu, simt_pkg::OpMov,
      simt_pkg::OpMovSreg, simt_pkg::OpNot, simt_pkg::OpSelp, simt_pkg::OpLdParam:
        c = 11'b000_0000_0001;
      simt_pkg::OpSetp, simt_pkg::OpPand, simt_pkg::OpPor, simt_pkg::OpPxor,
      simt_pkg::OpPnot:
        c = 11'b000_0000_0010;
      simt_pkg::OpLdGlobal:      c = 11'b000_0000_0100;
      simt_pkg::OpStGlobal:      c = 11'b000_1000_0100;
      simt_pkg::OpLdShared:      c = 11'b100_0000_0100;
      simt_pkg::OpStShared:      c = 11'b100_1000_0100;
      simt_pkg::OpLdGlobalV4:    c = 11'b000_0100_0100;
      simt_pkg::OpStGlobalV4:    c = 11'b000_1100_0100;
      simt_pkg::OpAtomGlobal:    c = 11'b001_0000_0100;
      simt_pkg::OpAtomShared:    c = 11'b101_0000_0100;
      simt_pkg::OpAtomGlobalCas: c = 11'b011_0000_0100;
      simt_pkg::OpAtomSharedCas: c = 11'b111_0000_0100;
      simt_pkg::OpSsy, simt_pkg::OpSync, simt_pkg::OpPbrk, simt_pkg::OpBrk,
      simt_pkg::OpPcont, simt_pkg::OpCont, simt_pkg::OpBra, simt_pkg::OpBrx, simt_pkg::OpJmp,
      simt_pkg::OpJmx, simt_pkg::OpCal, simt_pkg::OpRet, simt_pkg::OpExit,
      simt_pkg::OpYield:
        c = 11'b000_0000_1000;
      simt_pkg::OpBarSync, simt_pkg::OpBarTopOcs, simt_pkg::OpBarTopUcs:
        c = 11'b000_0001_0000;
      simt_pkg::OpBarBotOcs, simt_pkg::OpBarBotUcs:
        c = 11'b000_0010_0000;
      default: ;
    endcase
    classify = c;
  endfunction

  logic is_alu, is_pred, is_mem, is_ctrl, is_arrive, is_bottom, is_v4, is_store, is_atom,
        is_cas, is_shared;
  assign {is_shared, is_cas, is_atom, is_store, is_v4, is_bottom, is_arrive, is_ctrl, is_mem,
          is_pred, is_alu} = classify(op);

  // DE: the instruction word straight from the instruction memory.
  logic [6:0]  de_op;
  /* verilator lint_off UNUSEDSIGNAL */
  logic [10:0] de_cls;     // bit 1 (predicate instructions) is not needed in DE
  /* verilator lint_on UNUSEDSIGNAL */
  logic        de_legal, de_need_b, de_simple;
  assign de_op    = imem_rdata[6:0];
  assign de_cls   = classify(de_op);
  assign de_legal = de_op < 7'(simt_pkg::NumOpcodes);
  // Register operand b is read only when something uses it: ALU and setp without an
  // immediate, selp, atomics (operand; cas: compare value, rc follows), stores (the data of
  // every lane; v4 stores read each element's register in the memory loop).
  assign de_need_b = ((de_cls[0] || de_op == simt_pkg::OpSetp) && !imem_rdata[7]) ||
                     de_op == simt_pkg::OpSelp || de_cls[8] || (de_cls[7] && !de_cls[6]);
  // A simple instruction completes in EXEC in one cycle (the divergence unit's DuNext answers
  // at once): the next instruction may be decoded meanwhile. Memory, control and barrier
  // instructions and traps take their own states.
  assign de_simple = de_legal && de_cls[10:2] == '0 && de_op != simt_pkg::OpBarReset &&
                     de_op != simt_pkg::OpTrap;


  // The divergence-unit operation of a control instruction.
  simt_pkg::du_op_e ctrl_du_op;
  always_comb begin
    ctrl_du_op = simt_pkg::DuNext;
    unique case (op)
      simt_pkg::OpSsy:   ctrl_du_op = simt_pkg::DuSsy;
      simt_pkg::OpSync:  ctrl_du_op = simt_pkg::DuSync;
      simt_pkg::OpPbrk:  ctrl_du_op = simt_pkg::DuPbrk;
      simt_pkg::OpBrk:   ctrl_du_op = simt_pkg::DuBrk;
      simt_pkg::OpPcont: ctrl_du_op = simt_pkg::DuPcont;
      simt_pkg::OpCont:  ctrl_du_op = simt_pkg::DuCont;
      simt_pkg::OpBra:   ctrl_du_op = simt_pkg::DuBra;
      simt_pkg::OpBrx:   ctrl_du_op = simt_pkg::DuBrx;
      simt_pkg::OpJmp:   ctrl_du_op = simt_pkg::DuJmp;
      simt_pkg::OpJmx:   ctrl_du_op = simt_pkg::DuJmx;
      simt_pkg::OpCal:   ctrl_du_op = simt_pkg::DuCal;
      simt_pkg::OpRet:   ctrl_du_op = simt_pkg::DuRet;
      simt_pkg::OpExit:  ctrl_du_op = simt_pkg::DuExit;
      simt_pkg::OpYield: ctrl_du_op = simt_pkg::DuYield;
      default:           ctrl_du_op = simt_pkg::DuNext;
    endcase
  end

  // ---------------------------------------------------------------------------------------
  // Memories: instruction memory, params, shared memory, register file (one bank per lane)
  // ---------------------------------------------------------------------------------------
  logic                 imem_re;
  logic [ImemAW-1:0]    imem_raddr;
  simt_ram_1r1w #(.Width(64), .Depth(ImemDepth)) u_imem (
    .clk_i   (clk_i),
    .we_i    (imem_we_i),
    .waddr_i (imem_waddr_i),
    .wdata_i (imem_wdata_i),
    .re_i    (imem_re),
    .raddr_i (imem_raddr),
    .rdata_o (imem_rdata)
  );

  logic                 param_re;
  logic [31:0]          param_rdata;
  simt_ram_1r1w #(.Width(32), .Depth(ParamWords)) u_param (
    .clk_i   (clk_i),
    .we_i    (param_we_i),
    .waddr_i (param_waddr_i),
    .wdata_i (param_wdata_i),
    .re_i    (param_re),
    .raddr_i (imem_rdata[32+ParamAW+1:34]),  // read in DE
    .rdata_o (param_rdata)
  );

  logic                 sh_we, sh_re;
  logic [ShAW-1:0]      sh_waddr, sh_raddr;
  logic [31:0]          sh_wdata, sh_rdata;
  simt_ram_1r1w #(.Width(32), .Depth(NumCtas * SharedWords)) u_shared (
    .clk_i   (clk_i),
    .we_i    (sh_we),
    .waddr_i (sh_waddr),
    .wdata_i (sh_wdata),
    .re_i    (sh_re),
    .raddr_i (sh_raddr),
    .rdata_o (sh_rdata)
  );

  // Two read ports (ra and rb in one cycle, in DE) as two copies written alike.
  logic                 rf_re, rf_re_b;
  logic [RfAW-1:0]      rf_raddr, rf_raddr_b, rf_waddr;
  logic [31:0]          rf_we;
  logic [32*32-1:0]     rf_wdata, rf_rdata, rf_rdata_b;
  for (genvar l = 0; l < 32; l++) begin : g_rf
    // 2^RfAW entries: NumWarps * 32 for a power-of-two NumWarps >= 2.
    simt_ram_1r1w #(.Width(32), .Depth(1 << RfAW)) u_bank (
      .clk_i   (clk_i),
      .we_i    (rf_we[l]),
      .waddr_i (rf_waddr),
      .wdata_i (rf_wdata[l*32 +: 32]),
      .re_i    (rf_re),
      .raddr_i (rf_raddr),
      .rdata_o (rf_rdata[l*32 +: 32])
    );
    simt_ram_1r1w #(.Width(32), .Depth(1 << RfAW)) u_bank_b (
      .clk_i   (clk_i),
      .we_i    (rf_we[l]),
      .waddr_i (rf_waddr),
      .wdata_i (rf_wdata[l*32 +: 32]),
      .re_i    (rf_re_b),
      .raddr_i (rf_raddr_b),
      .rdata_o (rf_rdata_b[l*32 +: 32])
    );
  end

  // ---------------------------------------------------------------------------------------
  // Lanes
  // ---------------------------------------------------------------------------------------
  logic [32*32-1:0] alu_res;
  /* verilator lint_off UNUSED */
  logic [32*32-1:0] atom_res;  // atomics are computed one lane at a time (below)
  /* verilator lint_on UNUSED */
  logic [31:0]      alu_cmp;
  for (genvar l = 0; l < 32; l++) begin : g_lane
    logic [31:0] b;
    assign b = imm_b ? imm : opb[l*32 +: 32];
    simt_sm_lane_alu u_alu (
      .op_i     (op),
      .sub_i    (f_sub),
      .a_i      (opa[l*32 +: 32]),
      .b_i      (b),
      .result_o (alu_res[l*32 +: 32]),
      .cmp_o    (alu_cmp[l]),
      .atom_o   (atom_res[l*32 +: 32])
    );
  end

  // ---------------------------------------------------------------------------------------
  // Divergence unit, barrier unit, warp scheduler
  // ---------------------------------------------------------------------------------------
  logic                  du_req_valid, du_req_ready;
  simt_pkg::du_op_e      du_req_op;
  logic [WarpW-1:0]      du_req_warp;
  logic [31:0]           du_req_guard;
  logic                  du_req_has_target;
  logic [AddrW-1:0]      du_req_target;
  logic [32*AddrW-1:0]   du_thread_target;
  logic [31:0]           du_link_mask;
  logic [AddrW-1:0]      du_link_value;
  logic                  du_yield_fired;
  logic                  du_wake_fast;   // a sleeping warp woken in this cycle ...
  logic [31:0]           du_wake_mask;   // ... with these threads active
  logic                  du_evt_pop, du_evt_discard;
  logic [WarpW-1:0]      qry_warp;
  logic [AddrW-1:0]      iss_pc;
  logic                  issue_try;    // the FSM may issue this cycle (IDLE or CHECK)
  // Wakes and issues alternate while both wait: a woken warp issues without waiting for
  // every wake token of its barrier, and wakes are never starved by issuing warps.
  logic                  issue_due_d, issue_due_q;
  logic                  launch_ready; // a CTA can be launched now
  logic [31:0]           iss_active;
  logic [AddrW-1:0]      qry_pc;
  logic [31:0]           qry_active;
  logic [127:0]          qry_reason;
  logic [PtrW-1:0]       qry_count;
  logic [NumWarps-1:0]   du_stalled;
  /* verilator lint_off UNUSED */
  logic [63:0]           qry_front;
  logic [simt_pkg::SumW-1:0] qry_types;
  /* verilator lint_on UNUSED */

  for (genvar l = 0; l < 32; l++) begin : g_ttarget
    assign du_thread_target[l*AddrW +: AddrW] = opa[l*32 +: AddrW];
  end

  simt_divergence_unit #(
    .NumWarps  (NumWarps),
    .Depth     (QueueDepth),
    .DequeMode (DequeMode)
  ) u_du (
    .clk_i               (clk_i),
    .rst_ni              (rst_ni),
    .cfg_stack_i         (cfg_stack_i),
    .lfsr_load_i         (start_i && !started_q),
    .lfsr_seed_i         (cfg_lfsr_seed_i),
    .req_valid_i         (du_req_valid),
    .req_op_i            (du_req_op),
    .req_warp_i          (du_req_warp),
    .req_guard_i         (du_req_guard),
    .req_has_target_i    (du_req_has_target),
    .req_target_i        (du_req_target),
    .req_thread_target_i (du_thread_target),
    .req_yield_kind_i    (f_sub),
    .req_ready_o         (du_req_ready),
    .resp_link_mask_o    (du_link_mask),
    .resp_link_value_o   (du_link_value),
    .resp_yield_fired_o  (du_yield_fired),
    .resp_wake_fast_o    (du_wake_fast),
    .resp_wake_mask_o    (du_wake_mask),
    .evt_pop_o           (du_evt_pop),
    .evt_discard_o       (du_evt_discard),
    .iss_warp_i          (sched_warp),
    .iss_pc_o            (iss_pc),
    .iss_active_o        (iss_active),
    .qry_warp_i          (qry_warp),
    .qry_pc_o            (qry_pc),
    .qry_active_o        (qry_active),
    .qry_reason_o        (qry_reason),
    .qry_q_count_o       (qry_count),
    .qry_q_front_o       (qry_front),
    .qry_q_types_o       (qry_types),
    .q_head_o            (q_head_o),
    .q_tail_o            (q_tail_o),
    .exc_valid_o         (exc_valid_o),
    .exc_warp_o          (exc_warp_o),
    .exc_back_o          (exc_back_o),
    .stalled_o           (du_stalled),
    .mnt_valid_i         (mnt_valid_i),
    .mnt_op_i            (mnt_op_i),
    .mnt_warp_i          (mnt_warp_i),
    .mnt_idx_i           (mnt_idx_i),
    .mnt_wdata_i         (mnt_wdata_i),
    .mnt_head_i          (mnt_head_i),
    .mnt_tail_i          (mnt_tail_i),
    .mnt_ready_o         (mnt_ready_o),
    .mnt_rvalid_o        (mnt_rvalid_o),
    .mnt_rdata_o         (mnt_rdata_o)
  );

  logic                  bu_req_valid, bu_req_ready;
  logic [2:0]            bu_req_op;
  logic [CtaW-1:0]       bu_req_cta;
  logic [11:0]           bu_req_count;
  logic [31:0]           bu_req_mask;
  logic                  bu_refused, bu_pass, bu_sleep;
  logic                  bu_wake_valid, bu_wake_ready;
  logic [CtaW-1:0]       bu_wake_cta;
  logic [WarpW-1:0]      bu_wake_warp;
  logic [31:0]           bu_wake_mask;
  logic [AddrW-1:0]      bu_wake_resume;
  logic [4:0]            bu_sleep_lane;
  localparam int BuEntW = $clog2(NumEnt);
  logic [1:0]            bu_sb_rd_state, bu_sb_upd_state;
  logic [AddrW-1:0]      bu_sb_rd_tag, bu_sb_upd_tag;
  logic                  bu_sb_upd_valid;
  logic [BuEntW-1:0]     bu_sb_upd_idx;
  /* verilator lint_off UNUSED */
  logic [NumBarSlots-1:0] bu_slots;
  logic [2:0]            bu_fsm_state;
  logic                  bu_tmo_fire;
  logic [$clog2(NumEnt)-1:0] bu_tmo_bar;
  logic                  bu_grant_fire;
  logic [$clog2(NumEnt)-1:0] bu_grant_bar;
  logic [$clog2(((NumEnt > NumBarSlots) ? NumEnt - NumBarSlots : 1) + 1)-1:0] bu_fifo_count;
  /* verilator lint_on UNUSED */

  // The barrier ids' priorities (seed 0108) go into the unit one id per cycle, round robin:
  // all 16 are loaded within 16 cycles of reset, long before a launched CTA can arrive.
  logic [3:0] prio_id_d, prio_id_q;
  assign prio_id_d = prio_id_q + 4'd1;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) prio_id_q <= '0;
    else         prio_id_q <= prio_id_d;
  end

  simt_barrier_unit #(
    .NumCtas  (NumCtas),
    .Warps    (NumWarps),
    .TagW     (AddrW),
    .TimeW    (16),
    .NumSlots (NumBarSlots),
    .PrioW    (2)
  ) u_bu (
    .clk_i            (clk_i),
    .rst_ni           (rst_ni),
    .req_valid_i      (bu_req_valid),
    .req_ready_o      (bu_req_ready),
    .req_op_i         (bu_req_op),
    .req_cta_i        (bu_req_cta),
    .req_id_i         (f_rd[3:0]),
    .req_warp_i       (wic_q[w_q]),
    .req_mask_i       (bu_req_mask),
    .req_tag_i        (pc_q),
    .req_kind_i       ((op == simt_pkg::OpBarSync) ? 2'd0 :
                       (op == simt_pkg::OpBarTopOcs) ? 2'd1 : 2'd2),
    .req_excl_i       (f_sub[1]),
    .req_nb_i         (f_sub[2]),
    .req_count_i      (bu_req_count),
    .req_imp_i        (f_sub[3]),
    .req_min_i        ({2'b00, imm[21:12]}),
    .req_timeout_i    ({1'b0, f_rb, imm[31:22]}),
    .req_pass_i       (f_sub[4]),
    .req_nonpart_i    ((active_q & ~exec) != '0),
    .resp_refused_o   (bu_refused),
    .resp_pass_o      (bu_pass),
    .resp_sleep_o     (bu_sleep),
    .resp_lane_o      (bu_sleep_lane),
    .wake_valid_o     (bu_wake_valid),
    .wake_ready_i     (bu_wake_ready),
    .wake_cta_o       (bu_wake_cta),
    .wake_warp_o      (bu_wake_warp),
    .wake_mask_o      (bu_wake_mask),
    .wake_resume_o    (bu_wake_resume),
    .prio_we_i        (1'b1),
    .prio_id_i        (prio_id_q),
    .prio_val_i       (cfg_bar_prio_i[{prio_id_q, 1'b0} +: 2]),
    .static_limit_i   (cfg_static_limit_i),
    .cfg_tmo_origin_i (cfg_tmo_origin_i),
    .busy_o           (bar_busy_o),
    .static_long_o    (bar_static_long_o),
    .sec_active_o     (bar_sec_active_o),
    .sec_queued_o     (bar_sec_queued_o),
    .sec_excl_o       (bar_sec_excl_o),
    .fsm_state_o      (bu_fsm_state),
    .slots_occupied_o (bu_slots),
    .fifo_count_o     (bu_fifo_count),
    .tmo_fire_o       (bu_tmo_fire),
    .tmo_fire_bar_o   (bu_tmo_bar),
    .grant_fire_o     (bu_grant_fire),
    .grant_fire_bar_o (bu_grant_bar),
    .sb_rd_idx_i      (BuEntW'(sched_bar_rd_idx)),
    .sb_rd_state_o    (bu_sb_rd_state),
    .sb_rd_tag_o      (bu_sb_rd_tag),
    .sb_upd_valid_o   (bu_sb_upd_valid),
    .sb_upd_idx_o     (bu_sb_upd_idx),
    .sb_upd_state_o   (bu_sb_upd_state),
    .sb_upd_tag_o     (bu_sb_upd_tag)
  );

  logic                     sched_ready, sched_valid;
  logic [WarpW-1:0]         sched_warp;
  logic [NumWarps-1:0]      sched_retire;
  logic [NumWarps*CtaW-1:0] sched_cta;
  logic [NumCtas*6-1:0]     sched_cta_prio;
  /* verilator lint_off UNUSED */
  logic [NumWarps-1:0]      sched_gnt, sched_eligible, sched_bar_wait, sched_busy;
  logic                     sched_bar_rd_valid;
  /* verilator lint_on UNUSED */
  logic [CtaW+3:0]          sched_bar_rd_idx;
  logic [NumWarps*4-1:0]    sched_bar_id;
  logic [NumWarps*AddrW-1:0] sched_bar_tag;
  for (genvar i = 0; i < NumWarps; i++) begin : g_sched_bar
    assign sched_bar_id[i*4 +: 4]          = held_id_q[i];
    assign sched_bar_tag[i*AddrW +: AddrW] = held_pc_q[i];
  end

  for (genvar i = 0; i < NumWarps; i++) begin : g_sched_in
    assign sched_cta[i*CtaW +: CtaW] = wcta_q[i];
  end
  // Older CTAs first under the cta policy, as the ISA model: 63 - min(%ctaid, 63).
  for (genvar c = 0; c < NumCtas; c++) begin : g_cta_prio
    assign sched_cta_prio[c*6 +: 6] = (cid_q[c] > 16'd63) ? 6'd0 : 6'd63 - cid_q[c][5:0];
  end

  assign wake_slot = slot_of_q[{bu_wake_cta, bu_wake_warp}];

  // What the scheduler sees of each warp; in CHECK the checked warp's new state straight
  // from the divergence unit (it may issue again in the same cycle).
  logic [NumWarps-1:0] sched_wvalid, sched_wactive;
  always_comb begin
    sched_wvalid  = resident_q & ~wdone_q;
    sched_wactive = wactive_q;
    if (state_q == StCheck) begin
      sched_wvalid[w_q]  = resident_q[w_q] && !qry_done;
      sched_wactive[w_q] = qry_active != '0;
    end
    if (state_q == StWakeCheck) begin
      sched_wvalid[wake_w_q]  = resident_q[wake_w_q] && !qry_done;
      sched_wactive[wake_w_q] = qry_active != '0;
    end
    if ((state_q == StWake || state_q == StCheck) && du_wake_fast) begin
      sched_wvalid[wake_slot]  = resident_q[wake_slot];
      sched_wactive[wake_slot] = 1'b1;
    end
  end

  // The barrier scoreboard (seed 000 [0099]): an arrival at an id busy with another tag is
  // refused by the barrier unit and its warp held; the scheduler then checks the held warp's
  // barrier instruction (id, PC) against its copy of the barrier table entry, filled through
  // the unit's read port and kept current by its update stream, and issues the warp again
  // when the id is free or busy with that tag. (The core fetches after issue, so only a held
  // warp's next instruction is known to be a barrier.)
  simt_warp_scheduler #(
    .NumWarps  (NumWarps),
    .PrioW     (6),
    .NumCtas   (NumCtas),
    .NumBarIds (16),
    .TagW      (AddrW),
    .NumUpd    (1)
  ) u_sched (
    .clk_i             (clk_i),
    .rst_ni            (rst_ni),
    .policy_i          (cfg_policy_i),
    .warp_valid_i      (sched_wvalid),
    .warp_active_i     (sched_wactive),
    .inst_valid_i      ({NumWarps{1'b1}}),
    .warp_stall_i      (du_stalled),
    .retire_i          (sched_retire),
    .warp_cta_i        (sched_cta),
    .prog_prio_i       ('0),
    .cta_prio_i        (sched_cta_prio),
    .inst_bar_i        (held_q),
    .inst_bar_id_i     (sched_bar_id),
    .inst_tag_i        (sched_bar_tag),
    .bar_rd_valid_o    (sched_bar_rd_valid),
    .bar_rd_idx_o      (sched_bar_rd_idx),
    .bar_rd_state_i    (bu_sb_rd_state),
    .bar_rd_tag_i      (bu_sb_rd_tag),
    .bar_rd_late_ok_i  (1'b1),  // the unit takes every arrival of the busy tag
    .bar_upd_valid_i   (bu_sb_upd_valid),
    .bar_upd_idx_i     ((CtaW + 4)'(bu_sb_upd_idx)),
    .bar_upd_state_i   (bu_sb_upd_state),
    .bar_upd_tag_i     (bu_sb_upd_tag),
    .bar_upd_late_ok_i (1'b1),
    .issue_ready_i     (sched_ready),
    .issue_valid_o     (sched_valid),
    .issue_warp_o      (sched_warp),
    .issue_gnt_o       (sched_gnt),
    .eligible_o        (sched_eligible),
    .bar_wait_o        (sched_bar_wait),
    .busy_o            (sched_busy)
  );

  // ---------------------------------------------------------------------------------------
  // Helpers
  // ---------------------------------------------------------------------------------------
  // Lowest set bit of a lane mask.
  function automatic logic [4:0] lowest(logic [31:0] m);
    logic [4:0] r;
    r = '0;
    for (int i = 31; i >= 0; i--) begin
      if (m[i]) r = 5'(i);
    end
    lowest = r;
  endfunction

  function automatic logic [5:0] popcount32(logic [31:0] m);
    logic [5:0] n;
    n = '0;
    for (int i = 0; i < 32; i++) n = n + {5'd0, m[i]};
    popcount32 = n;
  endfunction

  // Warps per CTA and the launch mask of warp k of a CTA.
  logic [15:0] wpc;
  assign wpc = (cfg_ntid_i + 16'd31) >> 5;

  logic [15:0] lthreads;  // threads of the warp being launched
  logic [31:0] lmask;
  always_comb begin
    lthreads = cfg_ntid_i - {4'd0, 7'(lwarp_q), 5'd0};
    lmask    = (lthreads >= 16'd32) ? 32'hFFFF_FFFF : ((32'd1 << lthreads[4:0]) - 32'd1);
  end

  // Free warp slots and resident-CTA indices.
  logic [WarpW:0]   free_warps;
  logic [WarpW-1:0] first_free_slot;
  logic [CtaW-1:0]  first_free_cta;
  logic             any_free_cta;
  always_comb begin
    free_warps      = '0;
    first_free_slot = '0;
    for (int i = NumWarps - 1; i >= 0; i--) begin
      if (!resident_q[i]) first_free_slot = WarpW'(i);
    end
    for (int i = 0; i < NumWarps; i++) free_warps = free_warps + {{WarpW{1'b0}}, !resident_q[i]};
    first_free_cta = '0;
    any_free_cta   = 1'b0;
    for (int c = NumCtas - 1; c >= 0; c--) begin
      if (!cvalid_q[c]) begin
        first_free_cta = CtaW'(c);
        any_free_cta   = 1'b1;
      end
    end
  end

  assign launch_ready = started_q && next_cta_q < cfg_nctaid_i && any_free_cta &&
                        {{(16 - WarpW - 1){1'b0}}, free_warps} >= wpc;

  // A resident CTA all of whose warps are done.
  logic [NumCtas-1:0] cta_finished;
  always_comb begin
    for (int c = 0; c < NumCtas; c++) begin
      cta_finished[c] = cvalid_q[c];
      for (int i = 0; i < NumWarps; i++) begin
        if (resident_q[i] && wcta_q[i] == CtaW'(c) && !wdone_q[i]) cta_finished[c] = 1'b0;
      end
    end
  end

  // Predicate i of one lane (7 = pt, always true). Fixed-index selects keep Yosys fast.
  function automatic logic pick(logic [6:0] v, logic [2:0] i);
    logic r;
    r = 1'b1;
    for (int p = 0; p < 7; p++) begin
      if (i == 3'(p)) r = v[p];
    end
    pick = r;
  endfunction

  // The issued warp's predicates.
  logic [32*7-1:0] pw;
  assign pw = pred_q[w_q];

  // Guard of the instruction in DE, from its warp's predicates.
  logic [32*7-1:0] de_pw;
  logic [31:0]     de_guard;
  assign de_pw = pred_q[de_w_q];
  always_comb begin
    for (int l = 0; l < 32; l++) de_guard[l] = pick(de_pw[l*7 +: 7], imem_rdata[10:8]) ^ imem_rdata[11];
  end

  logic [31:0] exec;
  assign exec = active_q & guard_q;

  // The warp's done condition from the divergence unit's state: nothing active, no token,
  // every thread exited or never launched.
  // qry_busy: not done whatever the queue holds (active threads, or threads waiting for a
  // token or a barrier); it does not read the queue, whose query port the divergence unit
  // gives to a request presented in the same cycle.
  logic qry_done, qry_busy;
  always_comb begin
    qry_busy = qry_active != '0;
    for (int l = 0; l < 32; l++) begin
      if (qry_reason[l*4 +: 4] != simt_pkg::RsnNone &&
          qry_reason[l*4 +: 4] != simt_pkg::RsnExit) qry_busy = 1'b1;
    end
  end
  assign qry_done = !qry_busy && (qry_count == '0);

  // Memory access of the current (lane, element).
  logic [31:0] lane_base, lane_addr;
  logic        lane_misaligned, lane_out_of_range;
  assign lane_base = imm_b ? 32'd0 : opa[mlane_q*32 +: 32];
  assign lane_addr = lane_base + imm + {28'd0, melem_q, 2'b00};
  always_comb begin
    if (is_shared) begin
      lane_misaligned   = lane_addr[1:0] != 2'b00;
      lane_out_of_range = ({1'b0, lane_addr} + 33'd4) > {1'b0, cfg_shared_bytes_i};
    end else begin
      lane_misaligned   = (is_v4 && melem_q == 2'd0) ? lane_addr[3:0] != 4'd0
                                                     : lane_addr[1:0] != 2'b00;
      lane_out_of_range = ({1'b0, lane_addr} + 33'd4) > {1'b0, cfg_global_bytes_i};
    end
  end
  logic [ShAW-1:0] sh_index;
  assign sh_index = ShAW'(wcta_q[w_q]) * ShAW'(SharedWords) + ShAW'(lane_addr[31:2]);

  // Atomic update for shared memory: the lane ALU applied to the word just read.
  /* verilator lint_off UNUSED */
  logic [31:0] sh_atom_unused_res, gl_atom_unused_res;
  logic        sh_atom_unused_cmp, gl_atom_unused_cmp;
  /* verilator lint_on UNUSED */
  logic [31:0] shared_atom_new;
  simt_sm_lane_alu u_sh_atom (
    .op_i     (op),
    .sub_i    (f_sub),
    .a_i      (sh_rdata),
    .b_i      (mdata_q),
    .result_o (sh_atom_unused_res),
    .cmp_o    (sh_atom_unused_cmp),
    .atom_o   (shared_atom_new)
  );

  // Global atomics: the new word from the old one (at the read response).
  logic [31:0] global_atom_new;
  simt_sm_lane_alu u_gl_atom (
    .op_i     (op),
    .sub_i    (f_sub),
    .a_i      (mem_rsp_rdata_i),
    .b_i      (mdata_q),
    .result_o (gl_atom_unused_res),
    .cmp_o    (gl_atom_unused_cmp),
    .atom_o   (global_atom_new)
  );

  // ---------------------------------------------------------------------------------------
  // Lane results of ALU-class instructions (register data) and predicate instructions
  // ---------------------------------------------------------------------------------------
  // %gtid of lane 0: ctaid * ntid + warp * 32 (one multiplier, not one per lane).
  logic [31:0] gtid_base;
  assign gtid_base = {16'd0, wctaid_q[w_q]} * {16'd0, cfg_ntid_i} +
                     {{(27 - WarpW){1'b0}}, wic_q[w_q], 5'd0};

  logic [32*32-1:0] alu_wdata;
  always_comb begin
    for (int l = 0; l < 32; l++) begin
      unique case (op)
        simt_pkg::OpMov:     alu_wdata[l*32 +: 32] = imm_b ? imm : opa[l*32 +: 32];
        simt_pkg::OpLdParam: alu_wdata[l*32 +: 32] = param_rdata;
        simt_pkg::OpSelp:    alu_wdata[l*32 +: 32] = pick(pw[l*7 +: 7], f_sub[2:0]) ?
                                                     opa[l*32 +: 32] : opb[l*32 +: 32];
        simt_pkg::OpMovSreg: begin
          unique case (f_sub)
            simt_pkg::SregTid:    alu_wdata[l*32 +: 32] = {{(27 - WarpW){1'b0}}, wic_q[w_q], 5'(l)};
            simt_pkg::SregNtid:   alu_wdata[l*32 +: 32] = {16'd0, cfg_ntid_i};
            simt_pkg::SregCtaid:  alu_wdata[l*32 +: 32] = {16'd0, wctaid_q[w_q]};
            simt_pkg::SregNctaid: alu_wdata[l*32 +: 32] = {16'd0, cfg_nctaid_i};
            simt_pkg::SregLaneid: alu_wdata[l*32 +: 32] = 32'(l);
            simt_pkg::SregWarpid: alu_wdata[l*32 +: 32] = 32'(wic_q[w_q]);
            simt_pkg::SregGtid:   alu_wdata[l*32 +: 32] = gtid_base + 32'(l);
            simt_pkg::SregClock:  alu_wdata[l*32 +: 32] = cycle_q;
            default:              alu_wdata[l*32 +: 32] = '0;
          endcase
        end
        default: alu_wdata[l*32 +: 32] = alu_res[l*32 +: 32];
      endcase
    end
  end

  // The issued warp's predicates after setp/pand/por/pxor/pnot on its executing lanes.
  logic [32*7-1:0] pw_new;
  logic [31:0]     pa, pb, pr;  // per lane: predicate operands and result
  always_comb begin
    pw_new = pw;
    for (int l = 0; l < 32; l++) begin
      pa[l] = pick(pw[l*7 +: 7], f_ra[2:0]);
      pb[l] = pick(pw[l*7 +: 7], f_rb[2:0]);
      unique case (op)
        simt_pkg::OpSetp: pr[l] = alu_cmp[l];
        simt_pkg::OpPand: pr[l] = pa[l] & pb[l];
        simt_pkg::OpPor:  pr[l] = pa[l] | pb[l];
        simt_pkg::OpPxor: pr[l] = pa[l] ^ pb[l];
        default:          pr[l] = !pa[l];
      endcase
      for (int p = 0; p < 7; p++) begin
        if (exec[l] && f_rd[2:0] == 3'(p)) pw_new[l*7 + p] = pr[l];
      end
    end
  end

  // ---------------------------------------------------------------------------------------
  // Next state
  // ---------------------------------------------------------------------------------------
  // The divergence unit's query port: the warp being issued (its PC and mask for the fetch),
  // the warp in flight or just woken (its state read back), else the debug port.
  always_comb begin
    unique case (state_q)
      StIdle:      qry_warp = dbg_warp_i;  // the debug view (issue uses the issue port)
      StWakeCheck: qry_warp = wake_w_q;
      StDone, StFault, StLaunchWarp, StLaunchClr, StLaunchDu, StLaunchBu, StLaunchSh:
                   qry_warp = dbg_warp_i;
      default:     qry_warp = w_q;
    endcase
  end

  // EXEC hands plain and control instructions to the divergence unit in the same cycle
  // (memory and barrier instructions, traps and param faults go elsewhere first).
  logic exec_direct, param_fault;
  assign param_fault = op == simt_pkg::OpLdParam && exec != '0 &&
                       (imm[1:0] != 2'b00 ||
                        imm[31:2] >= {{(30 - ParamAW - 1){1'b0}}, cfg_param_words_i});
  assign exec_direct = state_q == StExec && !is_mem && op != simt_pkg::OpTrap && !param_fault &&
                       !is_arrive && !(is_bottom && exec != '0) && op != simt_pkg::OpBarReset;
  // A simple instruction retires in EXEC itself (DuNext answered in the cycle): the warp's
  // active mask and done state do not change, so CHECK has nothing to read back.
  logic ex_simple, ex_fast, de_go;
  assign ex_simple = exec_direct && !is_ctrl;
  assign ex_fast   = ex_simple && du_req_ready;
  // DE hands its instruction on: alone (DECODE), while EXEC retires a simple one, or while
  // CHECK retires the one before.
  assign de_go     = de_v_q && (state_q == StDecode || state_q == StCheck ||
                                (state_q == StExec && ex_fast));

  // IDLE would do nothing but issue: no CTA to retire or launch, no wake token due.
  logic issue_ok, wake_next;
  logic issue_base;
  assign issue_base = started_q && finished_q != cfg_nctaid_i && !(|cta_finished) &&
                      !launch_ready;
  assign issue_ok  = issue_base && (!bu_wake_valid || issue_due_q);
  // ... or IDLE would deliver a wake token (it is the wake's turn): a retiring state goes to
  // WAKE directly.
  assign wake_next = issue_base && bu_wake_valid && !issue_due_q;

  // The issue port's PC and mask; the warp retiring a simple instruction in EXEC may issue
  // again at once, at pc + 1 with the same mask (the unit's update lands at the clock edge).
  logic             issue_self, issue_pc_bad;
  logic [AddrW-1:0] issue_pc;
  logic [31:0]      issue_active;
  assign issue_self   = state_q == StExec && sched_warp == w_q;
  // ... and the warp woken in this cycle (a sleeping warp's one-cycle wake) at its resume
  // address with the woken threads.
  logic issue_woken;
  assign issue_woken  = (state_q == StWake || state_q == StCheck) && du_wake_fast &&
                        sched_warp == wake_slot;
  assign issue_pc     = issue_self ? pc_q + 1'b1 : issue_woken ? bu_wake_resume : iss_pc;
  assign issue_active = issue_self ? active_q : issue_woken ? du_wake_mask : iss_active;
  assign issue_pc_bad = {{(AddrW - ImemAW - 1){1'b0}}, cfg_code_size_i} <= issue_pc;

  logic             lane_done;  // the memory loop finished a lane: the next one, or DU
  logic             pred_we;    // the issued warp's predicates take pw_new
  logic             pred_clr;   // the launched slot's predicates are cleared
  always_comb begin
    pred_we    = 1'b0;
    pred_clr   = 1'b0;
    lane_done  = 1'b0;
    state_d    = state_q;
    started_d  = started_q;
    next_cta_d = next_cta_q;
    finished_d = finished_q;
    cycle_d    = started_q && state_q != StDone && state_q != StFault ? cycle_q + 32'd1
                                                                       : cycle_q;
    resident_d = resident_q;
    wdone_d    = wdone_q;
    wactive_d  = wactive_q;
    held_d     = held_q;
    cvalid_d   = cvalid_q;
    w_d        = w_q;
    pc_d       = pc_q;
    ir_d       = ir_q;
    active_d   = active_q;
    guard_d    = guard_q;
    opa_d      = opa_q;
    opb_d      = opb_q;
    opc_d      = opc_q;
    fwd_a_d    = fwd_a_q;
    fwd_b_d    = fwd_b_q;
    de_v_d     = 1'b0;      // DE lasts one cycle: the instruction moves on or is issued again
    de_w_d     = de_w_q;
    de_pc_d    = de_pc_q;
    de_active_d = de_active_q;
    du_op_d    = du_op_q;
    du_guard_d = du_guard_q;
    bu_exit_d  = bu_exit_q;
    counted_d  = counted_q;
    mrem_d     = mrem_q;
    mlane_d    = mlane_q;
    melem_d    = melem_q;
    maddr_d    = maddr_q;
    mdata_d    = mdata_q;
    mnew_d     = mnew_q;
    for (int i = 0; i < NumWarps; i++) begin
      held_id_d[i]  = held_id_q[i];
      held_pc_d[i]  = held_pc_q[i];
      wcta_d[i]     = wcta_q[i];
      wic_d[i]      = wic_q[i];
      wctaid_d[i]   = wctaid_q[i];
      pred_d[i]     = pred_q[i];
    end
    for (int c = 0; c < NumCtas; c++) cid_d[c] = cid_q[c];
    for (int i = 0; i < NumCtas * NumWarps; i++) slot_of_d[i] = slot_of_q[i];
    for (int i = 0; i < NumPerf; i++) perf_d[i] = perf_q[i];
    lcta_d     = lcta_q;
    lwarp_d    = lwarp_q;
    lslot_d    = lslot_q;
    lcnt_d     = lcnt_q;
    wake_ret_d = wake_ret_q;
    issue_due_d = issue_due_q;
    ret_state_d = ret_state_q;
    wake_w_d   = wake_w_q;
    fcause_d   = fcause_q;
    fwarp_d    = fwarp_q;
    fpc_d      = fpc_q;
    flane_v_d  = flane_v_q;
    flane_d    = flane_q;
    faddr_d    = faddr_q;

    imem_re    = 1'b0;
    imem_raddr = pc_q[ImemAW-1:0];
    param_re   = 1'b0;
    sh_we      = 1'b0;
    sh_re      = 1'b0;
    sh_waddr   = sh_index;
    sh_raddr   = sh_index;
    sh_wdata   = '0;
    rf_re      = 1'b0;
    rf_raddr   = {w_q, f_ra};
    rf_re_b    = 1'b0;
    rf_raddr_b = {de_w_q, imem_rdata[26:22]};
    rf_we      = '0;
    rf_waddr   = {w_q, f_rd};
    rf_wdata   = '0;
    du_req_valid      = 1'b0;
    du_req_op         = du_op_q;
    du_req_warp       = w_q;
    du_req_guard      = du_guard_q;
    du_req_has_target = 1'b1;
    du_req_target     = imm[AddrW-1:0];
    bu_req_valid  = 1'b0;
    bu_req_op     = 3'd2;
    bu_req_cta    = wcta_q[w_q];
    bu_req_count  = '0;
    bu_req_mask   = exec;
    bu_wake_ready = 1'b0;
    sched_ready   = 1'b0;
    issue_try     = 1'b0;
    sched_retire  = '0;
    mem_req_valid_o = 1'b0;
    mem_req_we_o    = 1'b0;
    mem_req_addr_o  = maddr_q;
    mem_req_wdata_o = mdata_q;
    retire_valid_o  = 1'b0;

    if (started_q && state_q != StDone && state_q != StFault) perf_d[0] = perf_q[0] + 32'd1;

    unique case (state_q)
      // -------------------------------------------------------------------------------------
      StIdle: begin
        if (start_i && !started_q) begin
          started_d = 1'b1;
          if (cfg_ntid_i == '0 || wpc > 16'(NumWarps) ||
              cfg_shared_bytes_i > 32'(SharedWords * 4) ||
              cfg_param_words_i > (ParamAW + 1)'(ParamWords)) begin
            fcause_d = simt_pkg::FltLaunch;
            state_d  = StFault;
          end
        end else if (started_q && finished_q == cfg_nctaid_i) begin
          state_d = StDone;
        end else if (started_q && |cta_finished) begin
          // Retire one finished CTA: free its warp slots and its resident index.
          for (int c = NumCtas - 1; c >= 0; c--) begin
            if (cta_finished[c]) lcta_d = CtaW'(c);
          end
          for (int c = 0; c < NumCtas; c++) begin
            if (cta_finished[c] && lcta_d == CtaW'(c)) begin
              cvalid_d[c] = 1'b0;
              for (int i = 0; i < NumWarps; i++) begin
                if (resident_q[i] && wcta_q[i] == CtaW'(c)) resident_d[i] = 1'b0;
              end
            end
          end
          finished_d = finished_q + 16'd1;
        end else if (launch_ready) begin
          lcta_d  = first_free_cta;
          lwarp_d = '0;
          state_d = StLaunchWarp;
        end else if (bu_wake_valid && !(issue_due_q && sched_valid)) begin
          wake_ret_d  = 1'b0;
          issue_due_d = 1'b1;
          state_d     = StWake;
        end else begin
          issue_try = 1'b1;  // below
          if (!sched_valid && started_q) begin
            // Idle, and why: 12 a warp waits at a barrier (asleep, or held at a busy id),
            // 13 the token queue is being serviced, 14 anything else (no warp resident).
            perf_d[3] = perf_q[3] + 32'd1;
            if (|(resident_q & ~wdone_q & (held_q | ~wactive_q))) perf_d[12] = perf_q[12] + 32'd1;
            else if (du_stalled != '0 || exc_valid_o) perf_d[13] = perf_q[13] + 32'd1;
            else perf_d[14] = perf_q[14] + 32'd1;
          end
        end
      end

      // ---- CTA launch: per warp take the lowest free slot, clear its registers, launch it
      // in the divergence unit; then the barrier unit's thread count and the shared memory.
      StLaunchWarp: begin
        lslot_d                 = first_free_slot;
        resident_d[first_free_slot] = 1'b1;
        wdone_d[first_free_slot]    = 1'b0;
        wactive_d[first_free_slot]  = 1'b1;
        held_d[first_free_slot]     = 1'b0;
        wcta_d[first_free_slot]     = lcta_q;
        wic_d[first_free_slot]      = lwarp_q;
        wctaid_d[first_free_slot]   = next_cta_q;
        slot_of_d[{lcta_q, lwarp_q}] = first_free_slot;
        pred_clr                    = 1'b1;
        lcnt_d  = '0;
        state_d = StLaunchClr;
      end
      StLaunchClr: begin
        rf_we    = '1;
        rf_waddr = {lslot_q, lcnt_q[4:0]};
        lcnt_d   = lcnt_q + 1'b1;
        if (lcnt_q[4:0] == 5'd31) state_d = StLaunchDu;
      end
      StLaunchDu: begin
        du_req_valid  = 1'b1;
        du_req_op     = simt_pkg::DuLaunch;
        du_req_warp   = lslot_q;
        du_req_guard  = lmask;
        du_req_target = '0;
        if (!du_req_ready) perf_d[5] = perf_q[5] + 32'd1;
        if (du_req_ready) begin
          if (16'(lwarp_q) + 16'd1 < wpc) begin
            lwarp_d = lwarp_q + 1'b1;
            state_d = StLaunchWarp;
          end else begin
            state_d = StLaunchBu;
          end
        end
      end
      StLaunchBu: begin
        bu_req_valid = 1'b1;
        bu_req_op    = 3'd0;
        bu_req_cta   = lcta_q;
        bu_req_count = cfg_ntid_i[11:0];
        if (bu_req_ready) begin
          lcnt_d  = '0;
          state_d = StLaunchSh;
        end else if (bu_wake_valid) begin
          // The unit takes no request while it wakes (a section's next thread, say).
          wake_ret_d  = 1'b1;
          ret_state_d = StLaunchBu;
          state_d     = StWake;
        end
      end
      StLaunchSh: begin
        if ({{(32 - ShAW - 1){1'b0}}, lcnt_q} < (cfg_shared_bytes_i >> 2)) begin
          sh_we    = 1'b1;
          sh_waddr = ShAW'(lcta_q) * ShAW'(SharedWords) + lcnt_q[ShAW-1:0];
          lcnt_d   = lcnt_q + 1'b1;
        end else begin
          cvalid_d[lcta_q] = 1'b1;
          cid_d[lcta_q]    = next_cta_q;
          next_cta_d       = next_cta_q + 16'd1;
          state_d          = StIdle;
        end
      end

      // ---- Decode and operand read ----------------------------------------------------------
      // DE itself (instruction word, guard, reads of ra and rb, the param read) is below: it
      // runs here alone or next to EXEC. The next warp issues meanwhile when this instruction
      // is simple (it will retire in EXEC in one cycle).
      StDecode: begin
        issue_try = issue_ok && de_simple;
      end
      StReadB: begin
        // cas: ra and rb were read in DE; now rc (the sub field as a register).
        opa_d    = rf_rdata;
        opb_d    = rf_rdata_b;
        rf_re    = 1'b1;
        rf_raddr = {w_q, f_sub};
        state_d  = StReadC;
      end
      StReadC: begin
        opc_d   = rf_rdata;
        state_d = StExec;
      end

      // ---- Execute ------------------------------------------------------------------------
      StExec: begin
        // Latch the forwarded operand for the states after this one (memory, barrier, DU).
        opa_d      = opa;
        opb_d      = opb;
        fwd_a_d    = 1'b0;
        fwd_b_d    = 1'b0;
        counted_d  = 1'b1;
        bu_exit_d  = 1'b0;
        du_op_d    = simt_pkg::DuNext;
        du_guard_d = guard_q;
        state_d    = StDu;
        if (is_alu) begin
          rf_we    = exec;
          rf_waddr = {w_q, f_rd};
          rf_wdata = alu_wdata;
          if (param_fault) begin
            rf_we     = '0;
            fcause_d  = (imm[1:0] != 2'b00) ? simt_pkg::FltParamAlign : simt_pkg::FltParamRange;
            fwarp_d   = w_q;
            fpc_d     = pc_q;
            flane_v_d = 1'b1;
            flane_d   = lowest(exec);
            faddr_d   = imm;
            state_d   = StFault;
          end
        end else if (is_pred) begin
          pred_we = 1'b1;
        end else if (is_mem) begin
          mrem_d  = exec;
          mlane_d = lowest(exec);
          melem_d = '0;
          state_d = (exec == '0) ? StDu : StMemLane;
        end else if (is_ctrl) begin
          du_op_d   = ctrl_du_op;
          bu_exit_d = (op == simt_pkg::OpExit) && exec != '0;
        end else if (is_arrive || is_bottom || op == simt_pkg::OpBarReset) begin
          // An arrival without participants still tells the unit (a TIMEOUT may be measured
          // from any thread's arrival); it claims nothing and nobody sleeps.
          if (exec != '0 || is_arrive || op == simt_pkg::OpBarReset) state_d = StBarReq;
        end else if (op == simt_pkg::OpTrap) begin
          fcause_d = simt_pkg::FltTrap;
          fwarp_d  = w_q;
          fpc_d    = pc_q;
          state_d  = StFault;
        end
        // Everything else (nop, membar, sub-vector markers on a 32-wide machine): pc + 1.
      end

      // ---- Load/store: lane by lane in ascending order, v4 elements in order ---------------
      // A global access is requested in the cycle its address is checked (2 cycles per lane
      // with a memory that answers in the next cycle); store data and atomic operands come
      // from rb, read in DE for all lanes (v4 stores read each element's register here).
      StMemLane: begin
        maddr_d  = lane_addr;
        mdata_d  = opb[mlane_q*32 +: 32];
        rf_re    = 1'b1;
        rf_raddr = {w_q, f_rb + {3'd0, melem_q}};
        if (lane_misaligned || lane_out_of_range) begin
          fcause_d  = is_shared ? (lane_misaligned ? simt_pkg::FltSharedAlign
                                                   : simt_pkg::FltSharedRange)
                                : (lane_misaligned ? simt_pkg::FltGlobalAlign
                                                   : simt_pkg::FltGlobalRange);
          fwarp_d   = w_q;
          fpc_d     = pc_q;
          flane_v_d = 1'b1;
          flane_d   = mlane_q;
          faddr_d   = lane_addr;
          state_d   = StFault;
        end else if (is_v4 && is_store) begin
          state_d = StMemData;
        end else if (is_shared) begin
          sh_re   = 1'b1;
          state_d = StShData;
        end else begin
          mem_req_valid_o = 1'b1;
          mem_req_we_o    = is_store;
          mem_req_addr_o  = lane_addr;
          mem_req_wdata_o = opb[mlane_q*32 +: 32];
          if (!mem_req_ready_i) perf_d[4] = perf_q[4] + 32'd1;
          state_d = mem_req_ready_i ? StMemRsp : StMemReq;
        end
      end
      StMemData: begin
        // v4 store: this element's data register, read in StMemLane.
        mdata_d = rf_rdata[mlane_q*32 +: 32];
        state_d = StMemReq;
      end
      StMemReq: begin
        mem_req_valid_o = 1'b1;
        mem_req_we_o    = is_store;
        if (!mem_req_ready_i) perf_d[4] = perf_q[4] + 32'd1;
        if (mem_req_ready_i) state_d = StMemRsp;
      end
      StMemRsp: begin
        if (!mem_rsp_valid_i) perf_d[4] = perf_q[4] + 32'd1;
        if (mem_rsp_valid_i) begin
          if (!is_store) begin
            rf_we    = 32'd1 << mlane_q;
            rf_waddr = {w_q, f_rd + {3'd0, melem_q}};
            rf_wdata = {32{mem_rsp_rdata_i}};
          end
          if (is_atom) begin
            // Keep the old word; the new one comes from it and the operand (rb).
            mdata_d = mem_rsp_rdata_i;
            mnew_d  = global_atom_new;
            state_d = StAtomReq;
          end else if (is_v4 && melem_q != 2'd3) begin
            melem_d = melem_q + 2'd1;
            state_d = StMemLane;
          end else begin
            lane_done = 1'b1;
          end
        end
      end
      StAtomReq: begin
        // mdata_q holds the old word now; the operand is opb (rb) and for cas opc (rc).
        mem_req_valid_o = 1'b1;
        mem_req_we_o    = 1'b1;
        mem_req_wdata_o = is_cas ? ((mdata_q == opb[mlane_q*32 +: 32]) ?
                                    opc_q[mlane_q*32 +: 32] : mdata_q)
                                 : mnew_q;
        if (!mem_req_ready_i) perf_d[4] = perf_q[4] + 32'd1;
        if (mem_req_ready_i) state_d = StAtomRsp;
      end
      StAtomRsp: begin
        if (!mem_rsp_valid_i) perf_d[4] = perf_q[4] + 32'd1;
        if (mem_rsp_valid_i) lane_done = 1'b1;
      end
      StShData: begin
        // sh_rdata is the old word; mdata_q the store data or atomic operand (rb).
        sh_waddr = ShAW'(wcta_q[w_q]) * ShAW'(SharedWords) + ShAW'(maddr_q[31:2]);
        if (is_store) begin
          sh_we    = 1'b1;
          sh_wdata = mdata_q;
        end else begin
          rf_we    = 32'd1 << mlane_q;
          rf_waddr = {w_q, f_rd};
          rf_wdata = {32{sh_rdata}};
          if (is_atom) begin
            sh_we    = 1'b1;
            sh_wdata = is_cas ? ((sh_rdata == opb[mlane_q*32 +: 32]) ?
                                 opc_q[mlane_q*32 +: 32] : sh_rdata)
                              : shared_atom_new;
          end
        end
        lane_done = 1'b1;
      end

      // ---- Barrier unit requests -----------------------------------------------------------
      StBarReq: begin
        bu_req_valid = 1'b1;
        bu_req_op    = is_arrive ? 3'd2 : is_bottom ? 3'd4 : 3'd3;
        if (f_sub[0]) begin  // COUNT: immediate, or ra of the lowest participating lane
          bu_req_count = imm_b ? imm[11:0] : opa[lowest(exec)*32 +: 12];
        end
        if (bu_req_ready) begin
          if (is_arrive) begin
            if (exec != '0) perf_d[6] = perf_q[6] + 32'd1;
            if (bu_refused) begin
              // Held until the id is free; the instruction issues again then.
              perf_d[8]     = perf_q[8] + 32'd1;
              held_d[w_q]   = 1'b1;
              held_id_d[w_q]  = f_rd[3:0];
              held_pc_d[w_q]  = pc_q;
              counted_d     = 1'b0;
              state_d       = StCheck;
            end else if (!bu_pass && exec != '0) begin
              du_op_d    = simt_pkg::DuBarSleep;
              du_guard_d = exec;
              state_d    = StDu;
            end else begin
              state_d = StDu;
            end
          end else if (is_bottom && bu_sleep) begin
            // The thread inside the section sleeps at its bottom (blocking bottom).
            du_op_d    = simt_pkg::DuBarSleep;
            du_guard_d = 32'd1 << bu_sleep_lane;
            state_d    = StDu;
          end else begin
            state_d = StDu;
          end
        end else if (bu_wake_valid) begin
          // The unit may be waking threads before it takes requests again.
          wake_ret_d  = 1'b1;
          ret_state_d = StBarReq;
          state_d     = StWake;
        end
      end

      // ---- Divergence unit: the instruction's control behaviour ---------------------------
      StDu: begin
        if (!du_req_ready) perf_d[5] = perf_q[5] + 32'd1;
      end
      StExitBu: begin
        // Exits shrink the default COUNT of the CTA's barriers.
        bu_req_valid = 1'b1;
        bu_req_op    = 3'd1;
        bu_req_count = 12'(popcount32(exec));
        if (bu_req_ready) state_d = StCheck;
        else if (bu_wake_valid) begin
          wake_ret_d  = 1'b1;
          ret_state_d = StExitBu;
          state_d     = StWake;
        end
      end
      StCheck: begin
        wactive_d[w_q]    = qry_active != '0;
        wdone_d[w_q]      = qry_done;
        sched_retire[w_q] = 1'b1;
        retire_valid_o    = counted_q;
        if (counted_q) begin
          perf_d[1] = perf_q[1] + 32'd1;
          perf_d[2] = perf_q[2] + {26'd0, popcount32(exec)};
        end
        state_d = StIdle;
        // The next warp issues in this cycle when IDLE would only issue (nothing to retire,
        // launch or wake) and the instruction in DE, if any, is simple; the scheduler sees
        // this warp's new state (sched_wvalid). A wake token due is delivered next instead of
        // going through IDLE (unless this warp is done: IDLE may retire its CTA first).
        issue_try = issue_ok && (!de_v_q || de_simple);
        if (wake_next && !de_v_q && qry_busy) begin
          // The wake token due goes to the divergence unit now (CHECK's own request is done;
          // this warp is not done whatever its queue holds); a sleeping warp's wake completes
          // in this cycle and the next warp (the woken one, say) issues at once, else WAKE
          // carries the request on.
          wake_ret_d    = 1'b0;
          issue_due_d   = 1'b1;
          issue_try     = 1'b0;
          du_req_valid  = 1'b1;
          du_req_op     = simt_pkg::DuBarWake;
          du_req_warp   = wake_slot;
          du_req_guard  = bu_wake_mask;
          du_req_target = bu_wake_resume;
          wake_w_d      = wake_slot;
          state_d       = StWake;
          if (du_req_ready) begin
            bu_wake_ready        = 1'b1;
            perf_d[7]            = perf_q[7] + 32'd1;
            wactive_d[wake_slot] = 1'b1;
            wdone_d[wake_slot]   = 1'b0;
            state_d              = StIdle;
            issue_try            = issue_base;
          end
        end
      end

      // ---- Barrier wake tokens -> divergence unit -------------------------------------------
      StWake: begin
        du_req_valid  = 1'b1;
        du_req_op     = simt_pkg::DuBarWake;
        du_req_warp   = slot_of_q[{bu_wake_cta, bu_wake_warp}];
        du_req_guard  = bu_wake_mask;
        du_req_target = bu_wake_resume;
        bu_wake_ready = du_req_ready;
        wake_w_d      = slot_of_q[{bu_wake_cta, bu_wake_warp}];
        if (!du_req_ready) perf_d[5] = perf_q[5] + 32'd1;
        if (du_req_ready) begin
          perf_d[7] = perf_q[7] + 32'd1;
          if (du_wake_fast) begin
            // The warp slept with no active thread and now runs the woken ones: nothing to
            // read back, and the next warp (the woken one, say) issues now.
            wactive_d[wake_w_d] = 1'b1;
            wdone_d[wake_w_d]   = 1'b0;
            state_d             = wake_ret_q ? ret_state_q : StIdle;
            if (!wake_ret_q) issue_try = issue_ok;
          end else begin
            state_d = StWakeCheck;
          end
        end
      end
      StWakeCheck: begin
        wactive_d[wake_w_q] = qry_active != '0;
        wdone_d[wake_w_q]   = qry_done;
        state_d             = wake_ret_q ? ret_state_q : StIdle;
        // The next warp (the woken one, say: its new state is bypassed to the scheduler)
        // issues now when IDLE would only issue.
        if (!wake_ret_q) issue_try = issue_ok;
      end

      StDone:  ;
      StFault: ;
      default: state_d = StFault;
    endcase

    // The memory loop's next lane (ascending), or the instruction's divergence-unit step.
    if (lane_done) begin
      mrem_d  = mrem_q & ~(32'd1 << mlane_q);
      mlane_d = lowest(mrem_d);
      melem_d = '0;
      state_d = (mrem_d == '0) ? StDu : StMemLane;
    end

    // The divergence-unit request of the instruction: from EXEC already for plain and control
    // instructions (DuNext answers in the same cycle), else from DU after memory or barrier.
    if (state_q == StDu || exec_direct) begin
      du_req_valid      = 1'b1;
      du_req_op         = exec_direct ? (is_ctrl ? ctrl_du_op : simt_pkg::DuNext) : du_op_q;
      du_req_guard      = exec_direct ? guard_q : du_guard_q;
      du_req_has_target = (op == simt_pkg::OpSync || op == simt_pkg::OpBrk ||
                           op == simt_pkg::OpCont) ? imm_b : 1'b1;
      if (du_req_ready) begin
        if (op == simt_pkg::OpCal) begin
          rf_we    = du_link_mask;
          rf_waddr = {w_q, 5'd31};
          for (int l = 0; l < 32; l++) rf_wdata[l*32 +: 32] = 32'(du_link_value);
        end
        if (op == simt_pkg::OpYield && du_yield_fired) perf_d[9] = perf_q[9] + 32'd1;
        if (ex_simple) begin
          // Retires here; the next warp issues when IDLE would only issue and the instruction
          // in DE (if any) is simple too.
          sched_retire[w_q] = 1'b1;
          retire_valid_o    = 1'b1;
          perf_d[1]         = perf_q[1] + 32'd1;
          perf_d[2]         = perf_q[2] + {26'd0, popcount32(exec)};
          state_d           = StIdle;
          issue_try         = issue_ok && (!de_v_q || de_simple);
          if (wake_next && !de_v_q) begin
            wake_ret_d  = 1'b0;
            issue_due_d = 1'b1;
            state_d     = StWake;
          end
        end else if (exec_direct ? (op == simt_pkg::OpExit && exec != '0) : bu_exit_q) begin
          state_d = StExitBu;
        end else begin
          // CHECK comes next; the next warp issues now and is decoded during CHECK.
          state_d   = StCheck;
          issue_try = issue_ok;
        end
      end
    end

    // DE: the issued instruction's word, guard, operand reads (ra, r31 for ret; rb when used)
    // and param read; EXEC takes the operands straight from the read data.
    if (de_go) begin
      w_d        = de_w_q;
      pc_d       = de_pc_q;
      active_d   = de_active_q;
      ir_d       = imem_rdata;
      guard_d    = de_guard;
      rf_re      = 1'b1;
      rf_raddr   = {de_w_q, (de_op == simt_pkg::OpRet) ? 5'd31 : imem_rdata[21:17]};
      rf_re_b    = de_need_b;
      param_re   = 1'b1;
      if (!de_legal) begin
        fcause_d = simt_pkg::FltIllegal;
        fwarp_d  = de_w_q;
        fpc_d    = de_pc_q;
        state_d  = StFault;
      end else if (de_cls[9]) begin
        state_d = StReadB;  // cas reads rc too
      end else begin
        fwd_a_d = 1'b1;
        fwd_b_d = de_need_b;
        state_d = StExec;
      end
    end else if (de_v_q) begin
      // EXEC could not retire at once after all (or faults): the decoded warp is given back
      // unissued.
      sched_retire[de_w_q] = 1'b1;
    end

    // Issue and fetch in one cycle (IDLE, DECODE, CHECK, and EXEC or DU when the instruction
    // retires now or goes to CHECK): the chosen warp's PC and active mask from the divergence
    // unit's issue port. A PC out of range faults only once nothing before it is in flight.
    if (issue_try) begin
      sched_ready = !issue_pc_bad || (state_d == StIdle && !de_go);
      if (sched_valid && sched_ready) begin
        issue_due_d = 1'b0;
        held_d[sched_warp] = 1'b0;  // a held warp retries its barrier instruction
        de_w_d      = sched_warp;
        de_pc_d     = issue_pc;
        de_active_d = issue_active;
        imem_re     = 1'b1;
        imem_raddr  = issue_pc[ImemAW-1:0];
        if (issue_pc_bad) begin
          fcause_d = simt_pkg::FltPcRange;
          fwarp_d  = sched_warp;
          fpc_d    = issue_pc;
          state_d  = StFault;
        end else begin
          de_v_d = 1'b1;
          if (state_d == StIdle && !de_go) state_d = StDecode;
        end
      end
    end

    for (int i = 0; i < NumWarps; i++) begin
      if (pred_we && w_q == WarpW'(i)) pred_d[i] = pw_new;
      if (pred_clr && first_free_slot == WarpW'(i)) pred_d[i] = '0;
    end

  end

  // ---------------------------------------------------------------------------------------
  // Outputs
  // ---------------------------------------------------------------------------------------
  assign busy_o             = started_q && state_q != StDone && state_q != StFault;
  assign done_o             = state_q == StDone;
  assign fault_o            = state_q == StFault;
  assign fault_cause_o      = fcause_q;
  assign fault_warp_o       = fwarp_q;
  assign fault_pc_o         = fpc_q;
  assign fault_lane_valid_o = flane_v_q;
  assign fault_lane_o       = flane_q;
  assign fault_addr_o       = faddr_q;
  assign retire_warp_o      = w_q;
  assign retire_pc_o        = pc_q;
  assign retire_exec_o      = exec;
  assign retire_active_o    = active_q;
  // Between issue and retire (launch register clears happen outside).
  assign trace_inflight_o   = state_q != StIdle && state_q != StLaunchWarp &&
                              state_q != StLaunchClr && state_q != StLaunchDu &&
                              state_q != StLaunchBu && state_q != StLaunchSh &&
                              state_q != StDone && state_q != StFault;
  assign trace_rf_we_o      = rf_we;
  assign trace_rf_waddr_o   = rf_waddr;
  assign trace_rf_wdata_o   = rf_wdata;
  assign trace_wake_o       = bu_wake_ready;
  assign trace_wake_warp_o  = slot_of_q[{bu_wake_cta, bu_wake_warp}];
  assign trace_wake_mask_o  = bu_wake_mask;
  assign trace_wake_resume_o = bu_wake_resume;
  // (Served during an exit's barrier request, or in the CHECK that retires an instruction:
  // after that instruction.)
  assign trace_wake_late_o  = (wake_ret_q && ret_state_q == StExitBu) ||
                              (state_q == StCheck && counted_q);
  assign trace_bar_accept_o = state_q == StBarReq && bu_req_ready && is_arrive && !bu_refused;
  assign trace_tmo_o        = bu_tmo_fire;
  assign trace_tmo_warp_o   = slot_of_q[{CtaW'(bu_tmo_bar >> 4), WarpW'(0)}];
  assign trace_tmo_id_o     = bu_tmo_bar[3:0];
  // (A refused arrival changes nothing in the unit and does not retire: not counted.)
  assign trace_bu_req_o     = (state_q == StBarReq || state_q == StExitBu) && bu_req_ready &&
                              !(state_q == StBarReq && is_arrive && bu_refused);
  assign trace_grant_o      = bu_grant_fire;
  assign trace_grant_warp_o = slot_of_q[{CtaW'(bu_grant_bar >> 4), WarpW'(0)}];
  assign trace_grant_id_o   = bu_grant_bar[3:0];
  assign trace_launch_o      = (state_q == StLaunchWarp) && (lwarp_q == '0);
  assign trace_launch_warp_o = first_free_slot;
  assign dbg_resident_o     = resident_q[dbg_warp_i];
  assign dbg_done_o         = wdone_q[dbg_warp_i];
  assign dbg_held_o         = held_q[dbg_warp_i];
  assign dbg_ctaid_o        = wctaid_q[dbg_warp_i];
  assign dbg_warp_in_cta_o  = wic_q[dbg_warp_i];
  assign dbg_pc_o           = qry_pc;
  assign dbg_active_o       = qry_active;
  assign dbg_reason_o       = qry_reason;
  assign dbg_q_count_o      = qry_count;
  assign quiet_o            = state_q == StIdle && started_q && !sched_valid && !bu_wake_valid &&
                              !(|cta_finished) && !exc_valid_o && (du_stalled == '0);
  assign perf_o             = (perf_sel_i == 4'd10) ? pops_q :
                              (perf_sel_i == 4'd11) ? discards_q :
                              (32'(perf_sel_i) < 32'(NumPerf)) ? perf_q[perf_sel_i] : '0;

  // Token pops and discards: events of the divergence unit, counted on their own (they
  // depend on the request this block drives, so they stay out of the FSM's block).
  logic [31:0] pops_q, discards_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      pops_q     <= '0;
      discards_q <= '0;
    end else begin
      pops_q     <= pops_q + {31'd0, du_evt_pop};
      discards_q <= discards_q + {31'd0, du_evt_discard};
    end
  end

  // ---------------------------------------------------------------------------------------
  // Registers
  // ---------------------------------------------------------------------------------------
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q    <= StIdle;
      started_q  <= 1'b0;
      next_cta_q <= '0;
      finished_q <= '0;
      cycle_q    <= '0;
      resident_q <= '0;
      wdone_q    <= '0;
      wactive_q  <= '0;
      held_q     <= '0;
      cvalid_q   <= '0;
      w_q        <= '0;
      pc_q       <= '0;
      ir_q       <= '0;
      active_q   <= '0;
      guard_q    <= '0;
      de_v_q     <= 1'b0;
      de_w_q     <= '0;
      de_pc_q    <= '0;
      de_active_q <= '0;
      du_op_q    <= simt_pkg::DuNext;
      du_guard_q <= '0;
      bu_exit_q  <= 1'b0;
      counted_q  <= 1'b0;
      mrem_q     <= '0;
      mlane_q    <= '0;
      melem_q    <= '0;
      maddr_q    <= '0;
      mdata_q    <= '0;
      mnew_q     <= '0;
      lcta_q     <= '0;
      lwarp_q    <= '0;
      lslot_q    <= '0;
      lcnt_q     <= '0;
      wake_ret_q <= 1'b0;
      issue_due_q <= 1'b0;
      ret_state_q <= StIdle;
      wake_w_q   <= '0;
      fcause_q   <= simt_pkg::FltNone;
      fwarp_q    <= '0;
      fpc_q      <= '0;
      flane_v_q  <= 1'b0;
      flane_q    <= '0;
      faddr_q    <= '0;
      for (int i = 0; i < NumWarps; i++) begin
        held_id_q[i]  <= '0;
        held_pc_q[i]  <= '0;
        wcta_q[i]     <= '0;
        wic_q[i]      <= '0;
        wctaid_q[i]   <= '0;
        pred_q[i]     <= '0;
      end
      for (int c = 0; c < NumCtas; c++) cid_q[c] <= '0;
      for (int i = 0; i < NumCtas * NumWarps; i++) slot_of_q[i] <= '0;
      for (int i = 0; i < NumPerf; i++) perf_q[i] <= '0;
    end else begin
      state_q    <= state_d;
      started_q  <= started_d;
      next_cta_q <= next_cta_d;
      finished_q <= finished_d;
      cycle_q    <= cycle_d;
      resident_q <= resident_d;
      wdone_q    <= wdone_d;
      wactive_q  <= wactive_d;
      held_q     <= held_d;
      cvalid_q   <= cvalid_d;
      w_q        <= w_d;
      pc_q       <= pc_d;
      ir_q       <= ir_d;
      active_q   <= active_d;
      guard_q    <= guard_d;
      de_v_q     <= de_v_d;
      de_w_q     <= de_w_d;
      de_pc_q    <= de_pc_d;
      de_active_q <= de_active_d;
      du_op_q    <= du_op_d;
      du_guard_q <= du_guard_d;
      bu_exit_q  <= bu_exit_d;
      counted_q  <= counted_d;
      mrem_q     <= mrem_d;
      mlane_q    <= mlane_d;
      melem_q    <= melem_d;
      maddr_q    <= maddr_d;
      mdata_q    <= mdata_d;
      mnew_q     <= mnew_d;
      lcta_q     <= lcta_d;
      lwarp_q    <= lwarp_d;
      lslot_q    <= lslot_d;
      lcnt_q     <= lcnt_d;
      wake_ret_q <= wake_ret_d;
      issue_due_q <= issue_due_d;
      ret_state_q <= ret_state_d;
      wake_w_q   <= wake_w_d;
      fcause_q   <= fcause_d;
      fwarp_q    <= fwarp_d;
      fpc_q      <= fpc_d;
      flane_v_q  <= flane_v_d;
      flane_q    <= flane_d;
      faddr_q    <= faddr_d;
      for (int i = 0; i < NumWarps; i++) begin
        held_id_q[i]  <= held_id_d[i];
        held_pc_q[i]  <= held_pc_d[i];
        wcta_q[i]     <= wcta_d[i];
        wic_q[i]      <= wic_d[i];
        wctaid_q[i]   <= wctaid_d[i];
        pred_q[i]     <= pred_d[i];
      end
      for (int c = 0; c < NumCtas; c++) cid_q[c] <= cid_d[c];
      for (int i = 0; i < NumCtas * NumWarps; i++) slot_of_q[i] <= slot_of_d[i];
      for (int i = 0; i < NumPerf; i++) perf_q[i] <= perf_d[i];
    end
  end

  // Operand registers: wide, no reset needed (always written before use).
  always_ff @(posedge clk_i) begin
    opa_q <= opa_d;
    opb_q <= opb_d;
    opc_q <= opc_d;
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      fwd_a_q <= 1'b0;
      fwd_b_q <= 1'b0;
    end else begin
      fwd_a_q <= fwd_a_d;
      fwd_b_q <= fwd_b_d;
    end
  end

  // ---------------------------------------------------------------------------------------
  // Assertions
  // ---------------------------------------------------------------------------------------
`ifdef VERILATOR
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      // Only the issued warp's executing lanes are written, except launch clears and cal.
      if (state_q == StExec) assert ((rf_we & ~exec) == '0)
        else $error("sm: register write outside the executing lanes");
      if (de_v_q) assert (resident_q[de_w_q] && !wdone_q[de_w_q])
        else $error("sm: issued warp %0d is not resident", de_w_q);
      if (de_v_q) assert (de_active_q != '0)
        else $error("sm: issued warp %0d has no active thread", de_w_q);
      // DE runs alone (DECODE), next to CHECK, or next to EXEC, which then retires a simple
      // instruction at once (or faults); two instructions of one warp are never in flight.
      assert (de_v_q == (state_q == StDecode) ||
              (de_v_q && (state_q == StExec || state_q == StCheck)))
        else $error("sm: instruction in DE in state %0d", state_q);
      if (de_v_q && state_q == StCheck) assert (de_w_q != w_q)
        else $error("sm: warp %0d in DE and CHECK at once", w_q);
      if (de_v_q && state_q == StExec) assert (ex_fast || state_d == StFault)
        else $error("sm: EXEC next to DE does not retire in one cycle");
      if (de_v_q && state_q == StExec) assert (de_w_q != w_q)
        else $error("sm: warp %0d in DE and EXEC at once", w_q);
      if (state_q == StWake) assert (resident_q[slot_of_q[{bu_wake_cta, bu_wake_warp}]])
        else $error("sm: barrier wake for a warp that is not resident");
      if (state_q == StMemLane) assert (mrem_q[mlane_q] && exec[mlane_q])
        else $error("sm: memory access by a lane that does not execute");
      // A blocking bottom puts to sleep the thread in the section, which is in this warp.
      if (state_q == StBarReq && bu_req_ready && is_bottom && bu_sleep)
        assert (exec[bu_sleep_lane])
        else $error("sm: bottom sleep of a thread that is not in the section");
      if (state_q == StIdle && started_q) assert (finished_q <= cfg_nctaid_i)
        else $error("sm: more CTAs finished than launched");
      assert (!(mem_req_valid_o && state_q != StMemLane && state_q != StMemReq &&
                state_q != StAtomReq))
        else $error("sm: memory request outside the load/store states");
      // The idle reasons split the idle count.
      assert (perf_q[3] == perf_q[12] + perf_q[13] + perf_q[14])
        else $error("sm: idle reasons do not add up to the idle cycles");
    end
  end
`endif

endmodule
