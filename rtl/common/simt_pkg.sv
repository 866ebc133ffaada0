// simtcore shared package: default parameters, token types and token layout.
// Referenced with the simt_pkg:: prefix everywhere (Yosys 0.23 rejects `import pkg::*`).
package simt_pkg;

  // Not every user of the package needs every constant.
  /* verilator lint_off UNUSEDPARAM */

  // ---------------------------------------------------------------------------------------
  // Core parameters (defaults of ARCHITECTURE.md)
  // ---------------------------------------------------------------------------------------
  localparam int NumWarps    = 8;
  localparam int WarpSize    = 32;
  localparam int NumCtas     = 4;
  localparam int NumBarIds   = 16;
  localparam int NumBarSlots = 16;
  localparam int QueueDepth  = 32;
  localparam int NumRegs     = 32;

  // ---------------------------------------------------------------------------------------
  // Token types (seed 002). One encoding serves the 4-bit field of 64-bit tokens and the
  // 8-bit field of 128-bit tokens (upper bits zero).
  // ---------------------------------------------------------------------------------------
  typedef enum logic [3:0] {
    TokNone    = 4'd0,
    TokSync    = 4'd1,
    TokDiv     = 4'd2,
    TokCall    = 4'd3,
    TokBrk     = 4'd4,
    TokCont    = 4'd5,
    TokYield   = 4'd6,
    TokBarrier = 4'd7
  } tok_type_e;

  // Type-summary bits: one per token type that somebody asks "is there one below?" about.
  // Bits 0..3 are seed 002's bits 58..61 (SYNC, DIV, CALL, YIELD); BRK and CONT use the two
  // spare bits 62..63 of a 64-bit token. BARRIER tokens have no summary bit.
  localparam int SumW     = 6;
  localparam int SumSync  = 0;
  localparam int SumDiv   = 1;
  localparam int SumCall  = 2;
  localparam int SumYield = 3;
  localparam int SumBrk   = 4;
  localparam int SumCont  = 5;

  // 64-bit token for 32-thread warps: [3:0] type, [35:4] mask, [57:36] address,
  // [63:58] type summary.
  typedef struct packed {
    logic [SumW-1:0] summary;
    logic [21:0]     addr;
    logic [31:0]     mask;
    logic [3:0]      ttype;
  } token64_t;

  // 128-bit token for 64-thread warps: [7:0] type, [71:8] mask, [103:72] address,
  // [109:104] type summary, [127:110] reserved (zero).
  typedef struct packed {
    logic [17:0]     rsvd;
    logic [SumW-1:0] summary;
    logic [31:0]     addr;
    logic [63:0]     mask;
    logic [7:0]      ttype;
  } token128_t;

  // Field positions by token width, for blocks parameterized on TokenW.
  localparam int Tok64SumLsb  = 58;
  localparam int Tok128SumLsb = 104;
  localparam int Tok64TypeW   = 4;
  localparam int Tok128TypeW  = 8;

  // Row of (CTA, warp in CTA) in a table of per-warp rows, CTA-major: cta * warps + warp.
  // The concatenation {cta, warp} would overrun the table when the warp count is 1 (its
  // index is still 1 bit wide) or not a power of two.
  function automatic logic [31:0] cta_warp_row(logic [31:0] cta, logic [31:0] warp,
                                               logic [31:0] warps);
    cta_warp_row = cta * warps + warp;
  endfunction

  // One-hot summary bit of a token type (zero for types without a summary bit).
  function automatic logic [SumW-1:0] summary_bit(logic [3:0] ttype);
    logic [SumW-1:0] bits;
    bits = '0;
    unique case (ttype)
      simt_pkg::TokSync:  bits[SumSync]  = 1'b1;
      simt_pkg::TokDiv:   bits[SumDiv]   = 1'b1;
      simt_pkg::TokCall:  bits[SumCall]  = 1'b1;
      simt_pkg::TokYield: bits[SumYield] = 1'b1;
      simt_pkg::TokBrk:   bits[SumBrk]   = 1'b1;
      simt_pkg::TokCont:  bits[SumCont]  = 1'b1;
      default:  bits = '0;
    endcase
    summary_bit = bits;
  endfunction

  // Why a thread is disabled. Values 1..7 equal the token type that re-activates it.
  typedef enum logic [3:0] {
    RsnNone    = 4'd0,
    RsnSync    = 4'd1,
    RsnDiv     = 4'd2,
    RsnCall    = 4'd3,
    RsnBrk     = 4'd4,
    RsnCont    = 4'd5,
    RsnYield   = 4'd6,
    RsnBarrier = 4'd7,
    RsnExit    = 4'd8
  } reason_e;

  // Divergence-unit requests: the control behaviour of one instruction, or a barrier event.
  typedef enum logic [4:0] {
    DuNext     = 5'd0,   // any non-control instruction: active threads to pc+1
    DuSsy      = 5'd1,
    DuSync     = 5'd2,
    DuPbrk     = 5'd3,
    DuBrk      = 5'd4,
    DuPcont    = 5'd5,
    DuCont     = 5'd6,
    DuBra      = 5'd7,
    DuBrx      = 5'd8,
    DuJmp      = 5'd9,
    DuJmx      = 5'd10,
    DuCal      = 5'd11,
    DuRet      = 5'd12,
    DuExit     = 5'd13,
    DuYield    = 5'd14,
    DuBarSleep = 5'd15,  // guard = participants
    DuBarWake  = 5'd16,  // guard = threads to wake, target = resume address
    DuLaunch   = 5'd17   // guard = threads, target = start address
  } du_op_e;

  // The core's requests to its divergence unit and barrier unit (simt_sm_sync) and their
  // answers: the SM's launch unit makes its own (a warp's threads, a CTA's thread count), its
  // control unit passes them on or makes the instruction's. Each request's valid, ready and
  // warp slot or CTA beside it are plain ports (those widths follow the parameters). Here,
  // beside du_op_e: Yosys 0.23 takes no enum of another package in a struct.
  localparam int PcW = 22;  // instruction addresses

  // A divergence-unit request (rtl/divergence/simt_divergence_unit.sv).
  typedef struct packed {
    du_op_e         op;
    logic [31:0]    guard;        // the threads it concerns
    logic           has_target;   // sync/brk/cont: uncovered threads take target (a
                                  // fallback), else wait
    logic [PcW-1:0] target;
  } du_req_t;

  // The divergence unit's answer, beside its ready.
  typedef struct packed {
    logic           next_ready;   // a DuNext would be taken (the unit's state alone)
    logic           wake_ready;   // a DuBarWake is taken (its own terms)
    logic           done;         // the sequence ends (DONE): a DuLaunch is taken
    logic [31:0]    link_mask;    // cal: the threads whose link register is written ...
    logic [PcW-1:0] link_value;   // ... with this
    logic           yield_fired;  // a yield's token was pushed or merged
    logic           wake_fast;    // a sleeping warp woken this cycle ...
    logic [31:0]    wake_mask;    // ... with these threads active
  } du_ans_t;

  // A barrier-unit request (rtl/barrier/simt_barrier_table.sv's operations).
  localparam logic [2:0] BuLaunch = 3'd0, BuExit = 3'd1, BuArrive = 3'd2, BuReset = 3'd3,
                         BuBottom = 3'd4;
  typedef struct packed {
    logic [2:0]  op;              // BuLaunch ... BuBottom
    logic [11:0] count;           // launch: the CTA's threads; exit: the threads leaving;
                                  // an arrival's COUNT
  } bu_req_t;

  // The barrier unit's answer, beside its ready.
  typedef struct packed {
    logic       refused;          // the arrival's barrier id is busy: the warp is held
    logic       pass;             // a late arrival at a .pass barrier: it continues
    logic       sleep;            // a bottom: the thread inside the section sleeps ...
    logic [4:0] sleep_lane;       // ... this one
  } bu_ans_t;

  // ---------------------------------------------------------------------------------------
  // Token-queue maintenance operations (runtime port of simt_token_deque)
  // ---------------------------------------------------------------------------------------
  typedef enum logic [1:0] {
    MntStall  = 2'd0,  // stop a warp's queue so the runtime may inspect it
    MntRead   = 2'd1,  // read entry idx of a stalled queue (data one cycle later)
    MntWrite  = 2'd2,  // write entry idx of a stalled queue
    MntResume = 2'd3   // load head/tail pointers, clear the stall, reload the front
  } mnt_op_e;

  // ---------------------------------------------------------------------------------------
  // Warp scheduler policies (run-time selectable) and barrier states (seed 000)
  // ---------------------------------------------------------------------------------------
  typedef enum logic [2:0] {
    PolOldest  = 3'd0,  // longest pending warp first (seed 000 [0068])
    PolProgram = 3'd1,  // program-given priority per warp
    PolCta     = 3'd2,  // priority of the warp's CTA
    PolGto     = 3'd3,  // greedy-then-oldest
    PolLrr     = 3'd4   // loose round robin
  } sched_policy_e;

  typedef enum logic [1:0] {
    BarIdle    = 2'd0,
    BarStatic  = 2'd1,  // some participant has arrived
    BarDynamic = 2'd2   // ready: being executed by the barrier scheduling unit
  } bar_state_e;

  // ---------------------------------------------------------------------------------------
  // Instruction encoding (sim/asm/isa.h, docs/isa.md): opcodes [6:0]; the SM core decodes.
  // ---------------------------------------------------------------------------------------
  typedef enum logic [6:0] {
    OpAdd = 7'd0, OpSub = 7'd1, OpMul = 7'd2, OpAnd = 7'd3, OpOr = 7'd4, OpXor = 7'd5,
    OpShl = 7'd6, OpShr = 7'd7, OpSra = 7'd8, OpMin = 7'd9, OpMax = 7'd10, OpMinu = 7'd11,
    OpMaxu = 7'd12, OpMov = 7'd13, OpMovSreg = 7'd14, OpNot = 7'd15, OpSelp = 7'd16,
    OpSetp = 7'd17, OpPand = 7'd18, OpPor = 7'd19, OpPxor = 7'd20, OpPnot = 7'd21,
    OpLdGlobal = 7'd22, OpStGlobal = 7'd23, OpLdShared = 7'd24, OpStShared = 7'd25,
    OpLdParam = 7'd26, OpLdGlobalV4 = 7'd27, OpStGlobalV4 = 7'd28, OpAtomGlobal = 7'd29,
    OpAtomShared = 7'd30, OpAtomGlobalCas = 7'd31, OpAtomSharedCas = 7'd32, OpMembar = 7'd33,
    OpSsy = 7'd34, OpSync = 7'd35, OpPbrk = 7'd36, OpBrk = 7'd37, OpPcont = 7'd38,
    OpCont = 7'd39, OpBra = 7'd40, OpBrx = 7'd41, OpJmp = 7'd42, OpJmx = 7'd43, OpCal = 7'd44,
    OpRet = 7'd45, OpExit = 7'd46, OpYield = 7'd47, OpBarSync = 7'd48, OpBarTopOcs = 7'd49,
    OpBarBotOcs = 7'd50, OpBarTopUcs = 7'd51, OpBarBotUcs = 7'd52, OpBarReset = 7'd53,
    OpSvStart = 7'd54, OpSvEnd = 7'd55, OpSvLoopBegin = 7'd56, OpSvLoopEnd = 7'd57,
    OpNop = 7'd58, OpTrap = 7'd59,
    // FP32 (docs/isa.md): 64 + simt_fpu_pkg::op_e, so that bits 3:0 are the unit's operation.
    OpFAdd = 7'd64, OpFSub = 7'd65, OpFMul = 7'd66, OpFFma = 7'd67, OpFMin = 7'd68,
    OpFMax = 7'd69, OpFAbs = 7'd70, OpFNeg = 7'd71, OpFSetp = 7'd72, OpFCvtS32F32 = 7'd73,
    OpFCvtU32F32 = 7'd74, OpFCvtF32S32 = 7'd75, OpFCvtF32U32 = 7'd76, OpFDiv = 7'd77,
    OpFSqrt = 7'd78
  } op_e;
  localparam int NumOpcodes = 60;  // integer and control encodings: 0 .. NumOpcodes-1
  localparam int FpOpcodes  = 64;  // FP32 encodings: FpOpcodes .. FpOpcodesEnd-1
  localparam int FpOpcodesEnd = 79;

  // Special registers (mov rd, %sreg: the sub field).
  localparam logic [4:0] SregTid = 5'd0, SregNtid = 5'd1, SregCtaid = 5'd2, SregNctaid = 5'd3,
                         SregLaneid = 5'd4, SregWarpid = 5'd5, SregGtid = 5'd6, SregClock = 5'd7;

  // Why the SM core stopped with a fault (fault_cause_o).
  typedef enum logic [3:0] {
    FltNone        = 4'd0,
    FltIllegal     = 4'd1,   // undefined opcode
    FltPcRange     = 4'd2,   // instruction address outside the loaded code
    FltTrap        = 4'd3,
    FltGlobalAlign = 4'd4,
    FltGlobalRange = 4'd5,
    FltSharedAlign = 4'd6,
    FltSharedRange = 4'd7,
    FltParamAlign  = 4'd8,
    FltParamRange  = 4'd9,
    FltLaunch      = 4'd10,  // the launch does not fit (threads per CTA, shared bytes)
    FltMemError    = 4'd11   // the memory answered a global access with an error
  } fault_e;

  /* verilator lint_on UNUSEDPARAM */

endpackage
