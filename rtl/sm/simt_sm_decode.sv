// Decode and operand read: the register file (one bank per lane, two read ports), the
// predicate file, the param memory, and the instruction latched for EXEC and after.
//
// DE (de_go_i): the fetched word, its guard from the warp's predicates, the reads of ra (r31
// for ret) and, when used, rb, and the param read. EXEC takes the operand read last straight
// from the register file's read data (fwd_*: one cycle saved) and latches it (exec_i) for the
// states after it (memory, barrier, divergence unit). A compare-and-swap reads rc in READB
// (read_b_i), which the read data holds from READC on: ffma's addend, the only third operand
// of all 32 threads (opc_o). The load/store unit reads through port a (lsu_re_i) for v4
// store data and cas's rc (the swap value, which it needs one thread at a time). Only ra has a
// latch (opa): rb and rc are the read ports' data, which hold while the instruction needs
// them (below). The register file has one write port, which the sequencer's
// units share (one writer at a time). Registers start at 0 (ISA.md) without being cleared:
// each (warp, register) remembers whether it was written since the slot's launch (clr_i);
// its first write zeroes the lanes it does not write, and a read of one never written gives 0.
module simt_sm_decode #(
  parameter int NumWarps   = 8,
  parameter int ParamWords = 64,
  parameter bit HasFpu     = 1'b1,  // FP32 opcodes are legal (simt_sm_fpu is there)
  localparam int WarpW     = (NumWarps > 1) ? $clog2(NumWarps) : 1,
  localparam int ParamAW   = $clog2(ParamWords),
  localparam int RfAW      = WarpW + 5,
  localparam int AddrW     = 22
) (
  input  logic                       clk_i,
  input  logic                       rst_ni,

  // Host: params.
  input  logic                       param_we_i,
  input  logic [ParamAW-1:0]         param_waddr_i,
  input  logic [31:0]                param_wdata_i,
  input  logic [ParamAW:0]           cfg_param_words_i,

  // DE: the instruction fetched last cycle.
  input  logic [WarpW-1:0]           de_w_i,
  input  logic [AddrW-1:0]           de_pc_i,
  input  logic [31:0]                de_active_i,
  input  logic [63:0]                de_word_i,
  output logic                       de_legal_o,
  output logic                       de_simple_o,    // completes in EXEC in one cycle
  output logic                       de_rc_o,        // reads rc in READB, READC (ffma)
  output logic [31:0]                de_regs_o,      // registers it reads or writes
  output logic                       de_membar_o,
  output logic                       de_fpu_o,       // an FP32 opcode (the FP unit's)
  output logic                       de_fpu_ds_o,    // fdiv or fsqrt (the iterative unit)

  // Sequencer.
  input  logic                       de_go_i,        // DE hands its instruction on
  input  logic                       read_b_i,
  input  logic                       read_c_i,       // (checked: one reader of port a)
  input  logic                       exec_i,
  // ... READB and EXEC for the next cycle (the sequencer's next stage): decode keeps a copy
  // of each per thread for the operand latch's selects (simt_copies).
  input  logic                       read_b_next_i,
  input  logic                       exec_next_i,

  // The instruction in EXEC and after, and its operands.
  output logic [WarpW-1:0]           w_o,
  output logic [AddrW-1:0]           pc_o,
  output simt_sm_pkg::inst_t         inst_o,
  output simt_sm_pkg::cls_t          cls_o,          // its classes (one decoder for all units)
  output logic [31:0]                active_o,
  output logic [31:0]                guard_o,
  output logic [31:0]                exec_o,         // active and guarded
  output logic [31:0]                exec_next_o,    // ... of the instruction in EXEC next
  output logic [31:0]                imm_b_o,        // inst_o.imm_b, one copy per thread
  output logic [simt_sm_pkg::ImmCopies*32-1:0] imm_o,  // inst_o.imm, a copy per thread group
  output logic                       exec_any_o,     // ... some thread (decided in DE)
  output logic                       param_bad_o,    // ld.param outside the params or
                                                     // misaligned (decided in DE)
  output logic [32*32-1:0]           opa_o,          // per lane: ra (ret: r31)
  output logic [32*32-1:0]           opb_o,          // rb
  output logic [32*32-1:0]           opc_o,          // the sub field as a register (ffma)
  output logic [32*7-1:0]            pred_o,         // p0..p6 of lane l at [l*7 +: 7]
  output logic [31:0]                param_rdata_o,

  // Register file: the load/store unit's read, the shared write port.
  input  logic                       lsu_re_i,
  input  logic [4:0]                 lsu_reg_i,
  output logic [32*32-1:0]           rf_rdata_o,
  input  logic [31:0]                rf_we_i,
  input  logic [RfAW-1:0]            rf_waddr_i,
  input  logic [32*32-1:0]           rf_wdata_i,

  // Predicate file: EXEC's write (warp w_o). A launched slot: its predicates cleared, its
  // registers read 0 until written.
  input  logic                       pred_we_i,
  input  logic [32*7-1:0]            pred_wdata_i,
  input  logic                       clr_i,
  input  logic [WarpW-1:0]           clr_warp_i
);

  logic [WarpW-1:0]  w_d, w_q;
  logic [AddrW-1:0]  pc_d, pc_q;
  logic [63:0]       ir_d, ir_q;
  logic [31:0]       active_d, active_q;
  logic [31:0]       guard_d, guard_q;
  // What EXEC's fault check needs, decided in DE: there it would sit at the head of the path
  // from EXEC through the control unit into the divergence unit.
  logic              exec_any_d, exec_any_q;
  logic              param_bad_d, param_bad_q;
  logic [32*32-1:0]  opa_d, opa_q;
  logic              fwd_a_d, fwd_a_q;
  logic [32*7-1:0]   pred_d [NumWarps];
  logic [32*7-1:0]   pred_q [NumWarps];

  // ---- DE ----------------------------------------------------------------------------------
  /* verilator lint_off UNUSEDSIGNAL */
  simt_sm_pkg::inst_t de_inst;
  simt_sm_pkg::cls_t  de_cls;
  /* verilator lint_on UNUSEDSIGNAL */
  logic               de_need_b;
  logic               de_fp_b;  // an FP operation with a second operand
  assign de_fp_b = de_cls.fpu && de_inst.op != simt_pkg::OpFAbs &&
                   de_inst.op != simt_pkg::OpFNeg && de_inst.op != simt_pkg::OpFSqrt &&
                   (de_inst.op < simt_pkg::OpFCvtS32F32 || de_inst.op > simt_pkg::OpFCvtF32U32);
  assign de_inst    = de_word_i;
  assign de_cls     = simt_sm_pkg::classify(de_inst.op);
  assign de_legal_o = de_inst.op < 7'(simt_pkg::NumOpcodes) || (HasFpu && de_cls.fpu);
  // Three register operands (rc in sub): cas (the load/store unit reads rc itself) and ffma,
  // whose addend decode reads in READB and latches in READC.
  logic de_three;
  assign de_three = de_cls.cas || de_inst.op == simt_pkg::OpFFma;
  assign de_rc_o  = HasFpu && de_inst.op == simt_pkg::OpFFma;
  // Register operand b is read only when something uses it: ALU and setp without an
  // immediate, selp, atomics (operand; cas: compare value, rc follows), stores (the data of
  // every lane; v4 stores read each element's register in the load/store unit).
  assign de_need_b = ((de_cls.alu || de_inst.op == simt_pkg::OpSetp || de_fp_b) &&
                      !de_inst.imm_b) ||
                     de_inst.op == simt_pkg::OpSelp || de_cls.atom ||
                     (de_cls.store && !de_cls.v4);
  // Memory, control and barrier instructions and traps take states of their own.
  // (Every shared, cas, atomic, store and v4 opcode is a memory opcode.)
  assign de_simple_o = de_legal_o && !de_cls.mem && !de_cls.fpu && !de_cls.bottom &&
                       !de_cls.arrive && !de_cls.ctrl && de_inst.op != simt_pkg::OpBarReset &&
                       de_inst.op != simt_pkg::OpTrap;

  // The registers the instruction in DE reads or writes, for the scoreboard: ra (r31 for
  // ret), rb when read (v4 stores: rb..rb+3), rc, and rd when written (v4 loads: rd..rd+3;
  // cal: r31). A superset is safe (it only waits longer).
  always_comb begin
    de_regs_o = '0;
    de_regs_o[(de_inst.op == simt_pkg::OpRet) ? 5'd31 : de_inst.ra] = 1'b1;
    if (de_need_b) de_regs_o[de_inst.rb] = 1'b1;
    if (de_three)  de_regs_o[de_inst.sub] = 1'b1;
    if (de_cls.alu || (de_cls.mem && !de_cls.store) || de_cls.fpu) begin
      de_regs_o[de_inst.rd] = 1'b1;
    end
    if (de_inst.op == simt_pkg::OpCal) de_regs_o[31] = 1'b1;
    for (int e = 0; e < 4; e++) begin
      if (de_cls.v4 && de_cls.store)  de_regs_o[de_inst.rb + 5'(e)] = 1'b1;
      if (de_cls.v4 && !de_cls.store) de_regs_o[de_inst.rd + 5'(e)] = 1'b1;
    end
  end
  assign de_membar_o = de_inst.op == simt_pkg::OpMembar;
  assign de_fpu_o    = de_cls.fpu;
  assign de_fpu_ds_o = de_inst.op == simt_pkg::OpFDiv || de_inst.op == simt_pkg::OpFSqrt;

  // Guard of the instruction in DE, from its warp's predicates.
  logic [32*7-1:0] de_pw;
  logic [31:0]     de_guard;
  assign de_pw = pred_q[de_w_i];
  always_comb begin
    for (int l = 0; l < 32; l++) begin
      de_guard[l] = simt_sm_pkg::pick(de_pw[l*7 +: 7], de_inst.guard[2:0]) ^ de_inst.guard[3];
    end
  end

  // ---- Copies of the operand selects ---------------------------------------------------------
  // The selects of the operand latch (forward the read data or hold; load in READB and EXEC)
  // and the entries' written bits reach every bit of 1,024-bit buses: each thread's bits take
  // their own copy of them (issue #26: one net each to 1,000 to 3,000 sinks were the
  // routing's worst), asserted equal to the single registers they copy. Copy t of a select is
  // bit t of its vector.
  localparam int NumSel = 5;
  logic [NumSel-1:0]    sel_d;
  logic [32*NumSel-1:0] sel_cp;
  logic [31:0] cp_exec, cp_read_b, cp_fwd_a, cp_used_a, cp_used_b;
  simt_copies #(.Width(NumSel), .Copies(32)) u_sel_copies (
    .clk_i  (clk_i),
    .rst_ni (rst_ni),
    .d_i    (sel_d),
    .q_o    (sel_cp)
  );
  for (genvar t = 0; t < 32; t++) begin : g_sel
    assign {cp_exec[t], cp_read_b[t], cp_fwd_a[t], cp_used_a[t], cp_used_b[t]} =
        sel_cp[t*NumSel +: NumSel];
  end
  simt_copies #(.Width(1), .Copies(32)) u_imm_b_copies (
    .clk_i  (clk_i),
    .rst_ni (rst_ni),
    .d_i    (ir_d[7]),  // inst_t's imm_b
    .q_o    (imm_b_o)
  );
  // The immediate: a copy per group of threads, for the load/store unit's 32 address adders.
  simt_copies #(.Width(32), .Copies(simt_sm_pkg::ImmCopies)) u_imm_copies (
    .clk_i  (clk_i),
    .rst_ni (rst_ni),
    .d_i    (ir_d[63:32]),  // inst_t's imm
    .q_o    (imm_o)
  );

  // ---- Register file: two read ports as two copies written alike --------------------------
  logic             rf_re, rf_re_b;
  logic [RfAW-1:0]  rf_raddr, rf_raddr_b;
  logic [32*32-1:0] rf_rdata, rf_rdata_b;        // what a read gives
  logic [32*32-1:0] rf_rdata_raw, rf_rdata_b_raw;  // the banks' data

  // Registers read 0 until written since the slot's launch, without a clear: one bit per
  // (warp, register) entry says whether it was written since (clr_i). The first write after
  // that writes every lane's bank, 0 where the lane is not written, so afterwards the banks
  // hold the launch's values in every lane and a read needs only the entry's bit. (Per lane
  // bits cost 32 flip-flops per entry and a 32-wide AND-OR read per port.)
  localparam int NumEnt = 1 << RfAW;
  logic [NumEnt-1:0] used_d, used_q;
  logic              rf_fresh;                 // the write is the entry's first since launch
  logic [31:0]       rf_bank_we;
  logic [32*32-1:0]  rf_bank_wdata;
  assign rf_fresh = rf_we_i != '0 &&
                    (!used_q[rf_waddr_i] || (clr_i && clr_warp_i == rf_waddr_i[RfAW-1:5]));
  always_comb begin
    used_d = used_q;
    for (int e = 0; e < NumEnt; e++) begin
      if (clr_i && clr_warp_i == WarpW'(e / 32)) used_d[e] = 1'b0;
    end
    if (rf_we_i != '0) used_d[rf_waddr_i] = 1'b1;
  end
  always_comb begin
    rf_bank_we = rf_fresh ? '1 : rf_we_i;
    for (int l = 0; l < 32; l++) begin
      rf_bank_wdata[l*32 +: 32] = rf_we_i[l] ? rf_wdata_i[l*32 +: 32] : 32'd0;
    end
  end
  // The entry's bit, read with the banks.
  logic used_a_d, used_a_q, used_b_d, used_b_q;
  assign used_a_d = rf_re ? used_q[rf_raddr] : used_a_q;
  assign used_b_d = rf_re_b ? used_q[rf_raddr_b] : used_b_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      used_q   <= '0;
      used_a_q <= 1'b0;
      used_b_q <= 1'b0;
    end else begin
      used_q   <= used_d;
      used_a_q <= used_a_d;
      used_b_q <= used_b_d;
    end
  end
  // Per thread: its copy of the entry's bit (the copies above).
  always_comb begin
    for (int t = 0; t < 32; t++) begin
      rf_rdata[t*32 +: 32]   = cp_used_a[t] ? rf_rdata_raw[t*32 +: 32] : 32'd0;
      rf_rdata_b[t*32 +: 32] = cp_used_b[t] ? rf_rdata_b_raw[t*32 +: 32] : 32'd0;
    end
  end

  always_comb begin
    rf_re    = 1'b0;
    rf_raddr = {w_q, inst_o.ra};
    if (read_b_i) begin
      rf_re    = 1'b1;
      rf_raddr = {w_q, inst_o.sub};
    end
    if (lsu_re_i) begin
      rf_re    = 1'b1;
      rf_raddr = {w_q, lsu_reg_i};
    end
    if (de_go_i) begin
      rf_re    = 1'b1;
      rf_raddr = {de_w_i, (de_inst.op == simt_pkg::OpRet) ? 5'd31 : de_inst.ra};
    end
  end
  assign rf_re_b    = de_go_i && de_need_b;
  assign rf_raddr_b = {de_w_i, de_inst.rb};

  for (genvar l = 0; l < 32; l++) begin : g_rf
    // 2^RfAW entries: NumWarps * 32 for a power-of-two NumWarps >= 2.
    simt_ram_1r1w #(.Width(32), .Depth(1 << RfAW)) u_bank (
      .clk_i   (clk_i),
      .we_i    (rf_bank_we[l]),
      .waddr_i (rf_waddr_i),
      .wdata_i (rf_bank_wdata[l*32 +: 32]),
      .re_i    (rf_re),
      .raddr_i (rf_raddr),
      .rdata_o (rf_rdata_raw[l*32 +: 32])
    );
    simt_ram_1r1w #(.Width(32), .Depth(1 << RfAW)) u_bank_b (
      .clk_i   (clk_i),
      .we_i    (rf_bank_we[l]),
      .waddr_i (rf_waddr_i),
      .wdata_i (rf_bank_wdata[l*32 +: 32]),
      .re_i    (rf_re_b),
      .raddr_i (rf_raddr_b),
      .rdata_o (rf_rdata_b_raw[l*32 +: 32])
    );
  end
  assign rf_rdata_o = rf_rdata;

  simt_ram_1r1w #(.Width(32), .Depth(ParamWords)) u_param (
    .clk_i   (clk_i),
    .we_i    (param_we_i),
    .waddr_i (param_waddr_i),
    .wdata_i (param_wdata_i),
    .re_i    (de_go_i),
    .raddr_i (de_word_i[32+ParamAW+1:34]),  // the word address of ld.param's immediate
    .rdata_o (param_rdata_o)
  );

  // ---- The instruction latch and operands ---------------------------------------------------
  // Per thread: ra forwarded from the read data in EXEC, else as latched; the latch loads in
  // READB (ffma: ra was read in DE; port a reads rc now) and EXEC (the forwarded operand, for
  // the states after EXEC: the load/store unit reads port a again while it needs the
  // addresses). rb and rc need no latch: port b is read only by DE, and port a only by DE,
  // READB and the load/store unit, and DE reads only when nothing in flight needs its
  // operands any more (the sequencer's de_go: nothing in EXEC, EXEC's last pass retiring, or
  // CHECK; the FP unit takes its operands when it starts; simt_sm asserts the load/store unit
  // is done), so the ports' read data hold rb (opb_o) and ffma's rc (opc_o, read in READB)
  // for as long as the instruction needs them. (Until 2026-11-27 both were 1,024-bit latches,
  // two of the wide buses that kept the 8-lane core from routing on the 85F.)
  always_comb begin
    for (int t = 0; t < 32; t++) begin
      opa_o[t*32 +: 32] = cp_fwd_a[t] ? rf_rdata[t*32 +: 32] : opa_q[t*32 +: 32];
      opa_d[t*32 +: 32] = opa_q[t*32 +: 32];
      if (cp_read_b[t]) opa_d[t*32 +: 32] = rf_rdata[t*32 +: 32];
      if (cp_exec[t])   opa_d[t*32 +: 32] = opa_o[t*32 +: 32];
    end
  end
  assign opb_o = rf_rdata_b;
  assign opc_o = rf_rdata;

  always_comb begin
    w_d         = w_q;
    pc_d        = pc_q;
    ir_d        = ir_q;
    active_d    = active_q;
    guard_d     = guard_q;
    exec_any_d  = exec_any_q;
    param_bad_d = param_bad_q;
    fwd_a_d  = fwd_a_q;
    if (exec_i) fwd_a_d = 1'b0;
    if (de_go_i) begin
      w_d         = de_w_i;
      pc_d        = de_pc_i;
      active_d    = de_active_i;
      ir_d        = de_word_i;
      guard_d     = de_guard;
      exec_any_d  = (de_active_i & de_guard) != '0;
      param_bad_d = de_inst.op == simt_pkg::OpLdParam &&
                    (de_inst.imm[1:0] != 2'b00 ||
                     de_inst.imm[31:2] >= {{(30 - ParamAW - 1){1'b0}}, cfg_param_words_i});
      if (de_legal_o && !de_rc_o) fwd_a_d = 1'b1;
    end
  end
  assign exec_next_o = active_d & guard_d;
  assign sel_d = {exec_next_i, read_b_next_i, fwd_a_d, used_a_d, used_b_d};

  // Predicates: EXEC's setp/pand/por/pxor/pnot, and a launched slot's clear.
  always_comb begin
    for (int i = 0; i < NumWarps; i++) begin
      pred_d[i] = pred_q[i];
      if (pred_we_i && w_q == WarpW'(i)) pred_d[i] = pred_wdata_i;
      if (clr_i && clr_warp_i == WarpW'(i)) pred_d[i] = '0;
    end
  end

  assign w_o      = w_q;
  assign pc_o     = pc_q;
  assign inst_o   = ir_q;
  assign cls_o    = simt_sm_pkg::classify(ir_q[6:0]);
  assign active_o    = active_q;
  assign guard_o     = guard_q;
  assign exec_o      = active_q & guard_q;
  assign exec_any_o  = exec_any_q;
  assign param_bad_o = param_bad_q;
  assign pred_o      = pred_q[w_q];

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      w_q      <= '0;
      pc_q     <= '0;
      ir_q     <= '0;
      active_q    <= '0;
      guard_q     <= '0;
      exec_any_q  <= 1'b0;
      param_bad_q <= 1'b0;
      fwd_a_q     <= 1'b0;
      for (int i = 0; i < NumWarps; i++) pred_q[i] <= '0;
    end else begin
      w_q      <= w_d;
      pc_q     <= pc_d;
      ir_q     <= ir_d;
      active_q    <= active_d;
      guard_q     <= guard_d;
      exec_any_q  <= exec_any_d;
      param_bad_q <= param_bad_d;
      fwd_a_q     <= fwd_a_d;
      for (int i = 0; i < NumWarps; i++) pred_q[i] <= pred_d[i];
    end
  end

  // The operand latch: wide, no reset needed (always written before use).
  always_ff @(posedge clk_i) begin
    opa_q <= opa_d;
  end

`ifdef VERILATOR
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      // The load/store unit's read may meet DE's (DE's wins: simt_sm asserts the unit is
      // done then and needs no data).
      assert ($onehot0({read_b_i, read_c_i, lsu_re_i && !de_go_i, de_go_i}))
        else $error("sm decode: two register reads of port a in one cycle");
      assert (!(pred_we_i && clr_i))
        else $error("sm decode: predicate write and clear in one cycle");
      assert (exec_any_q == (exec_o != '0))
        else $error("sm decode: EXEC's any-thread bit disagrees with its mask");
      for (int t = 0; t < 32; t++) begin
        assert ({cp_exec[t], cp_read_b[t], cp_fwd_a[t], cp_used_a[t], cp_used_b[t]} ==
                {exec_i, read_b_i, fwd_a_q, used_a_q, used_b_q})
          else $error("sm decode: thread %0d's copy of the operand selects differs", t);
        assert (imm_b_o[t] == inst_o.imm_b)
          else $error("sm decode: thread %0d's copy of imm_b differs", t);
      end
      for (int g = 0; g < simt_sm_pkg::ImmCopies; g++) begin
        assert (imm_o[g*32 +: 32] == inst_o.imm)
          else $error("sm decode: copy %0d of the immediate differs", g);
      end
    end
  end
`endif

endmodule
