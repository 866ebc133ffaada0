// Decode and operand read: the register file (NumLanes banks, three read ports), the
// predicate file, the param memory, and the instruction latched for EXEC and after.
//
// The register file is NumLanes banks (issue #26): bank l holds threads l, l + NumLanes, ...
// of every register of every warp, at {warp, register, group}. A read names a warp, the
// registers of the three ports (a: ra, r31 for ret; b: rb, or a v4 store's element register;
// c: the sub field as a register, cas's swap value and ffma's addend) and one group of
// NumLanes threads; the ports give that group's words the next cycle and hold them until the
// port is read again (opa_o, opb_o, opc_o, lane l: thread group * NumLanes + l). Readers, one
// a cycle: DE (the first group with an executing thread, de_go_i), EXEC's passes (the next
// pass's group, pass_rd_i) and the load/store unit (the group its lanes need next cycle,
// lsu_re_i). A port is read only for a register the instruction uses (the scoreboard covers
// those and no others). rd_grp_o says which group the ports hold. Writes are one group a
// cycle (every writer's threads are one group's; asserted), the data on the lanes.
// Registers start at 0 (ISA.md) without being cleared: each (warp, register, group)
// remembers whether it was written since the slot's launch (clr_i); its first write zeroes
// the lanes it does not write, and a read of one never written gives 0.
module simt_sm_decode #(
  parameter int NumWarps   = 8,
  parameter int NumLanes   = 32,
  parameter int ParamWords = 64,
  parameter bit HasFpu     = 1'b1,  // FP32 opcodes are legal (simt_sm_fpu is there)
  localparam int WarpW     = (NumWarps > 1) ? $clog2(NumWarps) : 1,
  localparam int ParamAW   = $clog2(ParamWords),
  localparam int RfAW      = WarpW + 5,
  localparam int NumPasses = 32 / NumLanes,
  localparam int PassW     = (NumPasses > 1) ? $clog2(NumPasses) : 1,
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
  output logic                       de_plain_mem_o, // a global load or store, no atomic or
                                                     // v4 store (the LSU may detach it)
  output logic                       de_membar_o,
  output logic                       de_fpu_o,       // an FP32 opcode (the FP unit's)
  output logic                       de_fpu_ds_o,    // fdiv or fsqrt (the iterative unit)

  // DE's instruction takes passes on the lanes (de_multi_i: simt_sm decides from the opcode
  // and its lane counts), on the FP lanes (its FP class, de_fpu_o); both latched with the
  // instruction (multi_o, fp_o), so the pass sequencer's "another pass follows", the head of
  // the path through the control unit into the next issue, waits for no decoder of EXEC's
  // opcode (issue #26).
  input  logic                       de_multi_i,
  output logic                       multi_o,
  output logic                       fp_o,

  // Sequencer and pass sequencer.
  input  logic                       de_go_i,        // DE hands its instruction on
  input  logic                       de_rd_i,        // DE reads its operands: de_go_i, or
                                                     // given back for the scoreboard
  input  logic                       pass_rd_i,      // EXEC reads the next pass's operands
  input  logic [PassW-1:0]           pass_next_i,    // ... of this group

  // The instruction in EXEC and after, and its operands.
  output logic [WarpW-1:0]           w_o,
  output logic [AddrW-1:0]           pc_o,
  output simt_sm_pkg::inst_t         inst_o,
  output simt_sm_pkg::cls_t          cls_o,          // its classes (one decoder for all units)
  output logic [31:0]                active_o,
  output logic [31:0]                guard_o,
  output logic [31:0]                exec_o,         // active and guarded
  output logic [31:0]                exec_next_o,    // ... of the instruction in EXEC next
                                                     // (DE's whenever it reads: de_rd_i)
  output logic [31:0]                imm_b_o,        // inst_o.imm_b, one copy per thread
  output logic [simt_sm_pkg::ImmCopies*32-1:0] imm_o,  // inst_o.imm, a copy per thread group
  output logic                       exec_any_o,     // ... some thread (decided in DE)
  output logic                       param_bad_o,    // ld.param outside the params or
                                                     // misaligned (decided in DE)
  output logic [NumLanes*32-1:0]     opa_o,          // the group read last: ra (ret: r31)
  output logic [NumLanes*32-1:0]     opb_o,          // rb (a v4 store's element register)
  output logic [NumLanes*32-1:0]     opc_o,          // the sub field as a register
  output logic [PassW-1:0]           rd_grp_o,       // the group the ports hold
  output logic [32*7-1:0]            pred_o,         // p0..p6 of lane l at [l*7 +: 7]
  output logic [31:0]                param_rdata_o,

  // Register file: the load/store unit's reads (ports a and c: the instruction's ra and rc,
  // port b: lsu_rb_i), the shared write port.
  input  logic                       lsu_re_i,
  input  logic                       lsu_re_b_i,
  input  logic                       lsu_re_c_i,
  input  logic [4:0]                 lsu_rb_i,
  input  logic [1:0]                 lsu_elem_i,  // lsu_rb_i is EXEC's rb + this (v4 store)
  input  logic [PassW-1:0]           lsu_grp_i,
  input  logic [31:0]                rf_we_i,        // threads of one group
  input  logic [RfAW-1:0]            rf_waddr_i,
  input  logic                       rf_split_i,     // each lane at its own address:
  input  logic [NumLanes*RfAW-1:0]   rf_waddr_lane_i,  // ... entries written since launch
  input  logic [NumLanes*32-1:0]     rf_wdata_i,     // on the lanes
  // Whether registers rf_uaddr_i .. + 3 of a warp (its group 0) were written since launch.
  input  logic [RfAW-1:0]            rf_uaddr_i,
  output logic [3:0]                 rf_used_o,

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
  logic              multi_d, multi_q, fp_d, fp_q;
  // Predicates per warp in LUT RAM (simt_ram_async, reading 0 until written after reset):
  // one write a cycle (EXEC's, at w_q, or a launch's clear; never both, asserted), read for
  // DE's warp and for EXEC's.
  logic              pred_we;
  logic [WarpW-1:0]  pred_waddr;
  logic [32*7-1:0]   pred_wdata, pred_de;

  // ---- DE ----------------------------------------------------------------------------------
  /* verilator lint_off UNUSEDSIGNAL */
  simt_sm_pkg::inst_t de_inst;
  simt_sm_pkg::cls_t  de_cls;
  /* verilator lint_on UNUSEDSIGNAL */
  logic               de_need_b, de_need_c;
  assign de_inst    = de_word_i;
  assign de_cls     = simt_sm_pkg::classify(de_inst.op);
  assign de_legal_o = de_inst.op < 7'(simt_pkg::NumOpcodes) || (HasFpu && de_cls.fpu);
  assign de_need_b  = simt_sm_pkg::reads_b(de_inst.op, de_inst.imm_b);
  assign de_need_c  = simt_sm_pkg::reads_c(de_inst.op);
  // Memory, control and barrier instructions and traps take states of their own.
  // (Every shared, cas, atomic, store and v4 opcode is a memory opcode.)
  assign de_simple_o = de_legal_o && !de_cls.mem && !de_cls.fpu && !de_cls.bottom &&
                       !de_cls.arrive && !de_cls.ctrl && de_inst.op != simt_pkg::OpBarReset &&
                       de_inst.op != simt_pkg::OpTrap;
  assign de_plain_mem_o = de_legal_o && de_cls.mem && !de_cls.shared && !de_cls.atom &&
                          !(de_cls.v4 && de_cls.store);

  // (The registers it reads or writes, for the scoreboard, come predecoded from the
  // instruction memory: simt_sm_issue's de_regs_o, simt_sm_pkg::inst_regs.)
  assign de_membar_o = de_inst.op == simt_pkg::OpMembar;
  assign de_fpu_o    = de_cls.fpu;
  assign de_fpu_ds_o = de_inst.op == simt_pkg::OpFDiv || de_inst.op == simt_pkg::OpFSqrt;

  // Guard of the instruction in DE, from its warp's predicates.
  logic [32*7-1:0] de_pw;
  logic [31:0]     de_guard;
  assign de_pw = pred_de;
  always_comb begin
    for (int l = 0; l < 32; l++) begin
      de_guard[l] = simt_sm_pkg::pick(de_pw[l*7 +: 7], de_inst.guard[2:0]) ^ de_inst.guard[3];
    end
  end

  // ---- Copies of the immediate -----------------------------------------------------------
  simt_copies #(.Width(1), .Copies(32)) u_imm_b_copies (
    .clk_i  (clk_i),
    .rst_ni (rst_ni),
    .en_i   ('1),
    .d_i    (ir_d[7]),  // inst_t's imm_b
    .q_o    (imm_b_o)
  );
  // The immediate: a copy per group of threads, for the load/store unit's address adders.
  simt_copies #(.Width(32), .Copies(simt_sm_pkg::ImmCopies)) u_imm_copies (
    .clk_i  (clk_i),
    .rst_ni (rst_ni),
    .en_i   ('1),
    .d_i    (ir_d[63:32]),  // inst_t's imm
    .q_o    (imm_o)
  );

  // ---- Register file: NumLanes banks, three read ports as three copies written alike -----
  // The read: its warp, group and the ports' registers; which ports read.
  // {warp, register, group}: the group's bits only when there are several.
  localparam int BankAW = RfAW + $clog2(NumPasses);
  function automatic logic [BankAW-1:0] bank_addr(logic [RfAW-1:0] e, logic [PassW-1:0] g);
    bank_addr = BankAW'(32'(e) * NumPasses + 32'(g));
  endfunction
  logic              rd_a, rd_b, rd_c;
  logic [WarpW-1:0]  rd_w;
  logic [PassW-1:0]  rd_grp;
  logic [4:0]        rd_ra, rd_rb, rd_rc;
  logic [PassW-1:0]  de_grp;  // DE: the group of its lowest executing thread
  assign de_grp = PassW'(32'(simt_sm_pkg::group_first(de_active_i & de_guard, NumLanes)) >>
                         $clog2(NumLanes));
  /* verilator lint_off UNUSEDSIGNAL */
  simt_sm_pkg::inst_t ir;
  /* verilator lint_on UNUSEDSIGNAL */
  assign ir = ir_q;
  // Port a's register, DE's and EXEC's: ra, or r31 for ret (its return address).
  logic [4:0] de_ra, ex_ra;
  assign de_ra = (de_inst.op == simt_pkg::OpRet) ? 5'd31 : de_inst.ra;
  assign ex_ra = (ir.op == simt_pkg::OpRet) ? 5'd31 : ir.ra;
  always_comb begin
    rd_w   = w_q;
    rd_grp = lsu_grp_i;
    rd_ra  = ex_ra;
    rd_rb  = lsu_rb_i;
    rd_rc  = ir.sub;
    rd_a   = lsu_re_i;
    rd_b   = lsu_re_b_i;
    rd_c   = lsu_re_c_i;
    if (pass_rd_i) begin
      rd_grp = pass_next_i;
      rd_rb  = ir.rb;
      rd_a   = 1'b1;
      rd_b   = simt_sm_pkg::reads_b(ir.op, ir.imm_b);
      rd_c   = simt_sm_pkg::reads_c(ir.op);
    end
    if (de_rd_i) begin  // DE's read wins (the load/store unit is done: simt_sm asserts it)
      rd_w   = de_w_i;
      rd_grp = de_grp;
      rd_ra  = de_ra;
      rd_rb  = de_inst.rb;
      rd_rc  = de_inst.sub;
      rd_a   = 1'b1;
      rd_b   = de_need_b;
      rd_c   = de_need_c;
    end
  end
  logic [BankAW-1:0] raddr_a, raddr_b, raddr_c;
  assign raddr_a = bank_addr({rd_w, rd_ra}, rd_grp);
  assign raddr_b = bank_addr({rd_w, rd_rb}, rd_grp);
  assign raddr_c = bank_addr({rd_w, rd_rc}, rd_grp);

  // The write: one group's threads (every writer's; asserted), on the lanes. The group and
  // the lanes from each group's OR, not from the lowest writing thread: with one group
  // writing, its number is the OR of the numbers of the groups with a thread, and the lanes
  // are the OR of the groups' (the write enables, the last of the write mask's chain, were
  // the board core's deepest path through a priority encoder and a shift, 2026-12-06).
  logic [NumPasses-1:0] wr_any;  // group g has a writing thread
  logic [PassW-1:0]     wr_grp;
  logic [BankAW-1:0]    waddr;
  logic [NumLanes-1:0]  we_lanes;
  always_comb begin
    wr_grp   = '0;
    we_lanes = '0;
    for (int g = 0; g < NumPasses; g++) begin
      wr_any[g] = rf_we_i[g*NumLanes +: NumLanes] != '0;
      if (wr_any[g]) wr_grp = wr_grp | PassW'(g);
      we_lanes = we_lanes | rf_we_i[g*NumLanes +: NumLanes];
    end
  end
  assign waddr = bank_addr(rf_waddr_i, wr_grp);

  // Registers read 0 until written since the slot's launch, without a clear: one bit per
  // (warp, register, group) entry says whether it was written since (clr_i). The first write
  // after that writes every lane's bank, 0 where the lane is not written, so afterwards the
  // banks hold the launch's values in every lane and a read needs only the entry's bit.
  localparam int NumEnt = 1 << BankAW;
  logic [NumEnt-1:0]   used_d, used_q;
  logic                rf_fresh;  // the write is the entry's first since launch
  logic [NumLanes-1:0] bank_we;
  logic [NumLanes*32-1:0] bank_wdata;
  // The written entry's bit: the bits of the register's groups, looked up from the address,
  // and the writing group picks one.
  logic [NumPasses-1:0] wr_used;
  always_comb begin
    for (int g = 0; g < NumPasses; g++) wr_used[g] = used_q[bank_addr(rf_waddr_i, PassW'(g))];
  end
  assign rf_fresh = wr_any != '0 && !rf_split_i &&
                    ((wr_used & wr_any) == '0 ||
                     (clr_i && clr_warp_i == rf_waddr_i[RfAW-1:5]));
  // A split write (the load/store unit's v4 drain): lane l writes its own entry, one already
  // written since launch (the unit asks rf_used_o first), so no other lane's bank is needed.
  logic [NumLanes*BankAW-1:0] bank_waddr;
  always_comb begin
    for (int l = 0; l < NumLanes; l++) begin
      bank_waddr[l*BankAW +: BankAW] =
          rf_split_i ? bank_addr(rf_waddr_lane_i[l*RfAW +: RfAW], wr_grp) : waddr;
    end
    for (int e = 0; e < 4; e++) begin
      rf_used_o[e] = used_q[bank_addr({rf_uaddr_i[RfAW-1:5], rf_uaddr_i[4:0] + 5'(e)},
                                      PassW'(0))];
    end
  end
  always_comb begin
    used_d = used_q;
    for (int e = 0; e < NumEnt; e++) begin
      if (clr_i && clr_warp_i == WarpW'(e / (32 * NumPasses))) used_d[e] = 1'b0;
    end
    if (rf_we_i != '0 && !rf_split_i) used_d[waddr] = 1'b1;
  end
  always_comb begin
    bank_we = rf_fresh ? '1 : we_lanes;
    for (int l = 0; l < NumLanes; l++) begin
      bank_wdata[l*32 +: 32] = we_lanes[l] ? rf_wdata_i[l*32 +: 32] : 32'd0;
    end
  end
  // Each port's entry bit, read with the banks; a copy per lane (the bit gates every lane's
  // 32 bits: issue #26, one net each rather than to NumLanes * 32 sinks). For the reads of the
  // instruction in EXEC (its passes, the load/store unit) the bits of its registers' groups
  // are looked up from registers and the group, known late (the load/store unit's next group
  // follows its coalescer), only picks one: the group is not on a path through a
  // (warp, register, group) lookup.
  // Port b's register is rb, or (a v4 store's element registers) rb + the load/store unit's
  // element, also known late (it follows the coalescer): the bits of rb .. rb + 3 are looked
  // up from registers and the element picks one, like the group (the board core's longest
  // path ran through rb + element into this lookup, 2026-12-06). The lookups take EXEC's
  // warp's bits first, shared by all of them.
  // A warp's bits (entry reg * NumPasses + group) and, from them, a register's bits of every
  // group: EXEC's lookups and DE's below.
  function automatic logic [32*NumPasses-1:0] warp_used(logic [NumEnt-1:0] used,
                                                        logic [WarpW-1:0] warp);
    warp_used = used[32'(warp) * 32 * NumPasses +: 32 * NumPasses];
  endfunction
  function automatic logic [NumPasses-1:0] reg_used(logic [32*NumPasses-1:0] wused,
                                                    logic [4:0] r);
    reg_used = wused[32'(r) * NumPasses +: NumPasses];
  endfunction
  logic [32*NumPasses-1:0] used_w;  // EXEC's warp's bits
  logic [NumPasses-1:0]    ua_ex, ub_ex, uc_ex;
  logic [NumPasses-1:0]    ub_el [4];
  assign used_w = warp_used(used_q, w_q);
  logic [4:0] ex_rb [4];
  always_comb begin
    for (int e = 0; e < 4; e++) ex_rb[e] = ir.rb + 5'(e);  // (wraps, as the unit's rb + e)
    ua_ex = reg_used(used_w, ex_ra);
    uc_ex = reg_used(used_w, ir.sub);
    for (int e = 0; e < 4; e++) ub_el[e] = reg_used(used_w, ex_rb[e]);
    ub_ex = ub_el[pass_rd_i ? 2'd0 : lsu_elem_i];
  end
  // DE's read looks its bits up from DE's own warp and registers, not from the read port's
  // address (a mux that also carries the load/store unit's late group: sharing it put that
  // group on the path to these bits, the board core's longest, 2026-12-06), and for every
  // group, as EXEC's: DE's group (its guard from the predicates, then the first group with
  // an executing thread) picks one after the copies, so it is not on the path through the
  // lookup (the board core's longest routed path ran from the fetched word through the guard
  // and the group into this lookup, 2026-12-07).
  logic [32*NumPasses-1:0] used_dew;  // DE's warp's bits
  logic [NumPasses-1:0]    ua_de, ub_de, uc_de;
  assign used_dew = warp_used(used_q, de_w_i);
  assign ua_de    = reg_used(used_dew, de_ra);
  assign ub_de    = reg_used(used_dew, de_inst.rb);
  assign uc_de    = reg_used(used_dew, de_inst.sub);
  // Each port's copies load the read's entry bits when the port reads and hold otherwise, by
  // their clock enables (the ports' read enables, asserted): the load/store unit's late read
  // enables reach the flip-flops' enables, not a hold multiplexer before them (the board
  // core's critical path ended there, 2026-12-06). A port keeps the bits of every group
  // (NumPasses candidates) and the group it read (used_grp), and picks the bit after the
  // flip-flops, beside the banks' read: the load/store unit's late group (it follows the
  // shared unit's bank conflicts) reaches only the bank address and a flip-flop, not a
  // lookup before the copies (the board core's critical path ended there next, 2026-12-06).
  // DE's and EXEC's candidates are looked up above.
  localparam int NumPorts = 3;
  logic [2:0]                    used_en;
  logic [NumPorts*NumPasses-1:0] used_ld, used_cen;  // port p's candidates: [p*NumPasses +:]
  logic [NumPorts*PassW-1:0]     used_gld, used_gen;
  always_comb begin
    used_en = de_rd_i ? {de_need_c, de_need_b, 1'b1} : {rd_c, rd_b, rd_a};
    if (de_rd_i) begin
      used_ld = {uc_de, ub_de, ua_de};
    end else begin
      used_ld = {uc_ex, ub_ex, ua_ex};
    end
    for (int p = 0; p < NumPorts; p++) begin
      used_cen[p*NumPasses +: NumPasses] = {NumPasses{used_en[p]}};
      used_gen[p*PassW +: PassW]         = {PassW{used_en[p]}};
    end
    used_gld = {NumPorts{rd_grp}};
  end
  logic [NumLanes*NumPorts*NumPasses-1:0] used_cp;  // lane l's copy: [l*NumPorts*NumPasses +:]
  logic [NumPorts*PassW-1:0]              used_grp;
  simt_copies #(.Width(NumPorts * NumPasses), .Copies(NumLanes)) u_used_copies (
    .clk_i  (clk_i),
    .rst_ni (rst_ni),
    .en_i   (used_cen),
    .d_i    (used_ld),
    .q_o    (used_cp)
  );
  simt_copies #(.Width(NumPorts * PassW), .Copies(1)) u_used_grp (
    .clk_i  (clk_i),
    .rst_ni (rst_ni),
    .en_i   (used_gen),
    .d_i    (used_gld),
    .q_o    (used_grp)
  );
  // Each lane's entry bit of each port (lane l, port p: [l*NumPorts + p]).
  logic [NumLanes*NumPorts-1:0] used_bit;
  always_comb begin
    for (int l = 0; l < NumLanes; l++) begin
      for (int p = 0; p < NumPorts; p++) begin
        logic [NumPasses-1:0] cand;
        cand = used_cp[(l*NumPorts + p)*NumPasses +: NumPasses];
        used_bit[l*NumPorts + p] = (NumPasses > 1) ? cand[used_grp[p*PassW +: PassW]] : cand[0];
      end
    end
  end
  // The group the ports hold (the last read's).
  logic [PassW-1:0] rd_grp_d, rd_grp_q;
  assign rd_grp_d = (rd_a || rd_b || rd_c) ? rd_grp : rd_grp_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      used_q   <= '0;
      rd_grp_q <= '0;
    end else begin
      used_q   <= used_d;
      rd_grp_q <= rd_grp_d;
    end
  end
  assign rd_grp_o = rd_grp_q;

  // The banks: port p's copy of lane l's bank (p: a, b, c), its data gated by the port's
  // entry bit.
  logic [NumPorts-1:0]             port_re;
  logic [NumPorts*BankAW-1:0]      port_raddr;
  logic [NumPorts*NumLanes*32-1:0] port_data;
  assign port_re    = {rd_c, rd_b, rd_a};
  assign port_raddr = {raddr_c, raddr_b, raddr_a};
  for (genvar p = 0; p < NumPorts; p++) begin : g_port
    for (genvar l = 0; l < NumLanes; l++) begin : g_lane
      // 2^BankAW entries: NumWarps * 32 * NumPasses for a power-of-two NumWarps >= 2.
      logic [31:0] raw;
      // DE's read given back for the scoreboard (de_rd_i without de_go_i) may meet a load's
      // write of the register it waits for: its data goes unused (SpecRead). Any other read
      // never meets the write of its entry (asserted).
      simt_ram_1r1w #(.Width(32), .Depth(NumEnt), .SpecRead(1'b1)) u_bank (
        .clk_i   (clk_i),
        .we_i    (bank_we[l]),
        .waddr_i (bank_waddr[l*BankAW +: BankAW]),
        .wdata_i (bank_wdata[l*32 +: 32]),
        .re_i    (port_re[p]),
        .raddr_i (port_raddr[p*BankAW +: BankAW]),
        .rdata_o (raw)
      );
      assign port_data[(p*NumLanes + l)*32 +: 32] = used_bit[l*NumPorts + p] ? raw : 32'd0;
`ifdef VERILATOR
      always_ff @(posedge clk_i) begin
        if (rst_ni && bank_we[l] && port_re[p] &&
            bank_waddr[l*BankAW +: BankAW] == port_raddr[p*BankAW +: BankAW])
          assert (de_rd_i && !de_go_i)
            else $error("sm decode: a read of lane %0d's bank (port %0d) meets its write", l, p);
      end
`endif
    end
  end
  assign opa_o = port_data[0 +: NumLanes*32];
  assign opb_o = port_data[NumLanes*32 +: NumLanes*32];
  assign opc_o = port_data[2*NumLanes*32 +: NumLanes*32];

  simt_ram_1r1w #(.Width(32), .Depth(ParamWords)) u_param (
    .clk_i   (clk_i),
    .we_i    (param_we_i),
    .waddr_i (param_waddr_i),
    .wdata_i (param_wdata_i),
    .re_i    (de_go_i),
    .raddr_i (de_word_i[32+ParamAW+1:34]),  // the word address of ld.param's immediate
    .rdata_o (param_rdata_o)
  );

  // ---- The instruction latch ---------------------------------------------------------------
  always_comb begin
    w_d         = w_q;
    pc_d        = pc_q;
    ir_d        = ir_q;
    active_d    = active_q;
    guard_d     = guard_q;
    exec_any_d  = exec_any_q;
    param_bad_d = param_bad_q;
    multi_d     = multi_q;
    fp_d        = fp_q;
    if (de_go_i) begin
      multi_d     = de_multi_i;
      fp_d        = de_cls.fpu;
      w_d         = de_w_i;
      pc_d        = de_pc_i;
      active_d    = de_active_i;
      ir_d        = de_word_i;
      guard_d     = de_guard;
      exec_any_d  = (de_active_i & de_guard) != '0;
      param_bad_d = de_inst.op == simt_pkg::OpLdParam &&
                    (de_inst.imm[1:0] != 2'b00 ||
                     de_inst.imm[31:2] >= {{(30 - ParamAW - 1){1'b0}}, cfg_param_words_i});
    end
  end
  // DE's threads whenever DE reads, not only when it goes: given back for the scoreboard it
  // leaves EXEC empty, where no pass is taken, and the pass sequencer's next group (the
  // lanes' copies of the pass) waits for no hazard (issue #26).
  assign exec_next_o = de_rd_i ? de_active_i & de_guard : active_q & guard_q;

  // Predicates: EXEC's setp/pand/por/pxor/pnot, and a launched slot's clear.
  assign pred_we    = pred_we_i || clr_i;
  assign pred_waddr = clr_i ? clr_warp_i : w_q;
  assign pred_wdata = clr_i ? '0 : pred_wdata_i;
  simt_ram_async #(.Width(32 * 7), .Depth(NumWarps), .NumRd(2), .ResetValid(1'b1)) u_pred (
    .clk_i   (clk_i),
    .rst_ni  (rst_ni),
    .we_i    (pred_we),
    .waddr_i (pred_waddr),
    .wdata_i (pred_wdata),
    .raddr_i ({w_q, de_w_i}),
    .rdata_o ({pred_o, pred_de})
  );

  assign w_o      = w_q;
  assign pc_o     = pc_q;
  assign inst_o   = ir_q;
  assign cls_o    = simt_sm_pkg::classify(ir_q[6:0]);
  assign active_o    = active_q;
  assign guard_o     = guard_q;
  assign exec_o      = active_q & guard_q;
  assign exec_any_o  = exec_any_q;
  assign param_bad_o = param_bad_q;
  assign multi_o     = multi_q;
  assign fp_o        = fp_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      w_q      <= '0;
      pc_q     <= '0;
      ir_q     <= '0;
      active_q    <= '0;
      guard_q     <= '0;
      exec_any_q  <= 1'b0;
      param_bad_q <= 1'b0;
      multi_q     <= 1'b0;
      fp_q        <= 1'b0;
    end else begin
      w_q      <= w_d;
      pc_q     <= pc_d;
      ir_q     <= ir_d;
      active_q    <= active_d;
      guard_q     <= guard_d;
      exec_any_q  <= exec_any_d;
      param_bad_q <= param_bad_d;
      multi_q     <= multi_d;
      fp_q        <= fp_d;
    end
  end

`ifdef VERILATOR
  initial begin
    assert (NumLanes >= 1 && NumLanes <= 32 && 32 % NumLanes == 0)
      else $fatal(1, "sm decode: NumLanes %0d does not divide a warp of 32", NumLanes);
  end
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      // One reader a cycle (DE's read may meet the load/store unit's: DE's wins, and simt_sm
      // asserts the unit is done then and needs no data).
      assert ($onehot0({pass_rd_i, (lsu_re_i || lsu_re_b_i || lsu_re_c_i) && !de_rd_i, de_rd_i}))
        else $error("sm decode: two readers of the register file in one cycle");
      if (de_go_i) assert (de_rd_i) else $error("sm decode: DE goes without its read");
      if (de_go_i || !de_rd_i) assert (exec_next_o == (active_d & guard_d))
        else $error("sm decode: EXEC's next threads %h, the latch's %h", exec_next_o,
                    active_d & guard_d);
      // The entry bits looked up per group and element for EXEC's instruction, and DE's from
      // its own address, are the read's own.
      if (lsu_re_b_i && !pass_rd_i && !de_rd_i)
        assert (lsu_rb_i == ir.rb + 5'(lsu_elem_i))
          else $error("sm decode: the unit reads r%0d on port b, not rb + %0d", lsu_rb_i,
                      lsu_elem_i);
      assert (used_en == {rd_c, rd_b, rd_a})
        else $error("sm decode: the entry bits load %b, the ports read %b", used_en,
                    {rd_c, rd_b, rd_a});
      assert ((!rd_a || used_ld[0*NumPasses + 32'(rd_grp)] == used_q[raddr_a]) &&
              (!rd_b || used_ld[1*NumPasses + 32'(rd_grp)] == used_q[raddr_b]) &&
              (!rd_c || used_ld[2*NumPasses + 32'(rd_grp)] == used_q[raddr_c]))
        else $error("sm decode: the entry bits of the read differ from its entries'");
      assert (simt_sm_pkg::later_groups(rf_we_i, NumLanes) == '0)
        else $error("sm decode: a register write %h to threads of two groups", rf_we_i);
      assert (rf_we_i == '0 || (32'(wr_grp) == 32'(simt_sm_pkg::group_first(rf_we_i, NumLanes)) >>
                                $clog2(NumLanes) && we_lanes == NumLanes'(rf_we_i >>
                                (32'(wr_grp) * NumLanes)) && wr_used[wr_grp] == used_q[waddr]))
        else $error("sm decode: the write's group %0d or lanes from the groups' ORs", wr_grp);
      for (int l = 0; l < NumLanes; l++) begin
        if (rf_split_i && we_lanes[l])
          assert (used_q[bank_waddr[l*BankAW +: BankAW]] &&
                  !(clr_i && clr_warp_i == rf_waddr_lane_i[l*RfAW + 5 +: WarpW]))
            else $error("sm decode: lane %0d's split write to an entry not written since launch", l);
      end
      assert (!(pred_we_i && clr_i))
        else $error("sm decode: predicate write and clear in one cycle");
      assert (exec_any_q == (exec_o != '0))
        else $error("sm decode: EXEC's any-thread bit disagrees with its mask");
      for (int l = 0; l < NumLanes; l++) begin
        assert (used_cp[l*NumPorts*NumPasses +: NumPorts*NumPasses] ==
                used_cp[0 +: NumPorts*NumPasses])
          else $error("sm decode: lane %0d's copy of the entry bits differs", l);
      end
      for (int t = 0; t < 32; t++) begin
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
