// The FP unit: one simt_fpu per lane (docs/blocks/fpu.md) running the FP32 instruction in
// EXEC. start_i hands in the instruction with its executing lanes and operands (a: ra, b: rb
// or the immediate, c: rc for ffma), which the lanes take at the start; every lane computes,
// only executing lanes are written. The pipelined operations finish simt_fpu_pkg::Latency
// cycles after the start, fdiv and fsqrt DivSqrtLatency.
//
// A register-writing operation lets the core go on in the cycle after its start (done_o): its
// result is held here and written into the register file (the warp, register and lanes taken
// at the start) in a cycle no other unit of the instruction in flight writes (rf_busy_i; a
// result waiting is wb_wait_o), while the scoreboard (de_*) gives back an instruction of that
// warp that reads or writes the register, and every FP instruction while the unit is busy.
// fsetp writes a predicate, which every instruction of its warp reads as its guard: the core
// waits for it (done_o when it is written).
module simt_sm_fpu #(
  parameter int  NumWarps = 8,
  localparam int WarpW    = (NumWarps > 1) ? $clog2(NumWarps) : 1,
  localparam int RfAW     = WarpW + 5
) (
  input  logic                   clk_i,
  input  logic                   rst_ni,
  input  logic                   start_i,
  /* verilator lint_off UNUSEDSIGNAL */
  input  simt_sm_pkg::inst_t     inst_i,   // the guard was applied in DE
  /* verilator lint_on UNUSEDSIGNAL */
  input  logic [31:0]            exec_i,
  input  logic [WarpW-1:0]       warp_i,
  input  logic [32*32-1:0]       opa_i,
  input  logic [32*32-1:0]       opb_i,
  input  logic [32*32-1:0]       opc_i,
  input  logic [32*7-1:0]        pred_i,   // the warp's predicates
  output logic                   busy_o,   // an operation in flight or its result unwritten
  output logic                   done_o,   // the core may go on

  // Scoreboard: the instruction in DE (warp, registers it reads or writes, an FP opcode).
  input  logic [WarpW-1:0]       de_w_i,
  input  logic [31:0]            de_regs_i,
  input  logic                   de_fpu_i,
  output logic                   de_hazard_o,
  output logic [WarpW-1:0]       warp_o,   // the warp whose result is in flight (busy_o)
  output logic                   freed_o,  // the result is written: waiting warps try again

  output logic [31:0]            rf_we_o,
  output logic [RfAW-1:0]        rf_waddr_o,
  output logic [32*32-1:0]       rf_wdata_o,
  output logic                   rf_late_o,  // a result written after its instruction retired
  input  logic                   rf_busy_i,  // another unit of the core writes this cycle
  output logic                   wb_wait_o,  // a result waits for the write port
  output logic                   pred_we_o,
  output logic [32*7-1:0]        pred_wdata_o
);

  logic              busy_d, busy_q;    // in flight or held
  logic              held_d, held_q;    // the result is here, not yet written
  logic              cmp_d, cmp_q;      // fsetp: the core waits
  logic              ds_d, ds_q;        // fdiv / fsqrt
  logic              first_q;           // the cycle after the start
  logic [WarpW-1:0]  warp_d, warp_q;
  logic [4:0]        rd_d, rd_q;
  logic [31:0]       exec_d, exec_q;
  logic [32*32-1:0]  res_d, res_q;

  logic [31:0]      valid, ds_valid, div_busy, pred;
  logic [32*32-1:0] result, ds_result;
  // The operands come straight from EXEC's latch (registers): gating them with start_i would
  // make the lanes' logic depend on the core's inputs, which simulation re-evaluates more often.
  for (genvar l = 0; l < 32; l++) begin : g_lane
    logic [31:0] a, b, c;
    assign a = opa_i[l*32 +: 32];
    assign b = inst_i.imm_b ? inst_i.imm : opb_i[l*32 +: 32];
    assign c = opc_i[l*32 +: 32];
    simt_fpu u_fpu (
      .clk_i       (clk_i),
      .rst_ni      (rst_ni),
      .valid_i     (start_i),
      .op_i        (inst_i.op[3:0]),
      .rm_i        (inst_i.sub[1:0]),
      .cmp_i       (inst_i.sub[3:0]),
      .a_i         (a),
      .b_i         (b),
      .c_i         (c),
      .valid_o     (valid[l]),
      .result_o    (result[l*32 +: 32]),
      .pred_o      (pred[l]),
      .busy_o      (div_busy[l]),
      .ds_valid_o  (ds_valid[l]),
      .ds_result_o (ds_result[l*32 +: 32])
    );
  end

  // Every lane starts together: lane 0 says when the results are there.
  logic ready, write;
  assign ready = busy_q && !held_q && (ds_q ? ds_valid[0] : valid[0]);
  // A register result is written as it comes or later; fsetp's predicate as it comes (the
  // core is waiting, no other unit writes).
  assign write     = !cmp_q && (held_q || ready) && !rf_busy_i;
  assign wb_wait_o = !cmp_q && (held_q || ready) && rf_busy_i;
  assign done_o    = cmp_q ? ready : first_q;
  assign freed_o   = write;

  always_comb begin
    busy_d = busy_q;
    held_d = held_q;
    cmp_d  = cmp_q;
    ds_d   = ds_q;
    warp_d = warp_q;
    rd_d   = rd_q;
    exec_d = exec_q;
    res_d  = res_q;
    if (ready && !held_q) res_d = ds_q ? ds_result : result;
    if (ready && !cmp_q && !write) held_d = 1'b1;
    if ((cmp_q && ready) || write) begin
      busy_d = 1'b0;
      held_d = 1'b0;
    end
    if (start_i) begin
      busy_d = 1'b1;
      held_d = 1'b0;
      cmp_d  = inst_i.op == simt_pkg::OpFSetp;
      ds_d   = inst_i.op == simt_pkg::OpFDiv || inst_i.op == simt_pkg::OpFSqrt;
      warp_d = warp_i;
      rd_d   = inst_i.rd;
      exec_d = exec_i;
    end
  end
  assign busy_o = busy_q;
  assign warp_o = warp_q;

  // The write: a register (zero data without a write: the core ORs its units' data), or the
  // predicate fsetp names (rd[2:0]) in the executing lanes (the warp in flight is fsetp's).
  always_comb begin
    rf_we_o      = '0;
    rf_waddr_o   = {warp_q, rd_q};
    rf_wdata_o   = '0;
    rf_late_o    = 1'b0;
    pred_we_o    = 1'b0;
    pred_wdata_o = pred_i;
    if (cmp_q && ready) begin
      pred_we_o    = 1'b1;
      pred_wdata_o = simt_sm_pkg::pred_write(pred_i, exec_q, rd_q[2:0], pred);
    end else if (write) begin
      rf_we_o    = exec_q;
      rf_wdata_o = held_q ? res_q : (ds_q ? ds_result : result);
      rf_late_o  = 1'b1;
    end
  end

  // The scoreboard: the register in flight, for its warp; the unit itself, for FP opcodes.
  assign de_hazard_o = busy_q && ((!cmp_q && de_w_i == warp_q && de_regs_i[rd_q]) || de_fpu_i);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      busy_q  <= 1'b0;
      held_q  <= 1'b0;
      cmp_q   <= 1'b0;
      ds_q    <= 1'b0;
      first_q <= 1'b0;
      warp_q  <= '0;
      rd_q    <= '0;
      exec_q  <= '0;
    end else begin
      busy_q  <= busy_d;
      held_q  <= held_d;
      cmp_q   <= cmp_d;
      ds_q    <= ds_d;
      first_q <= start_i && inst_i.op != simt_pkg::OpFSetp;
      warp_q  <= warp_d;
      rd_q    <= rd_d;
      exec_q  <= exec_d;
    end
  end

  // The held result: wide, no reset (read only while held).
  always_ff @(posedge clk_i) res_q <= res_d;

`ifdef VERILATOR
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      assert (!(start_i && busy_q)) else $error("sm fpu: start while busy");
      assert (!(write && rf_busy_i))
        else $error("sm fpu: a result written while the port is taken");
      assert (!(start_i && div_busy != '0 &&
                (inst_i.op == simt_pkg::OpFDiv || inst_i.op == simt_pkg::OpFSqrt)))
        else $error("sm fpu: a division or square root while the iterative unit is busy");
      assert (!(busy_q && (valid != '0) && (valid != '1)))
        else $error("sm fpu: the lanes' results are not in step");
      assert (!(busy_q && (ds_valid != '0) && (ds_valid != '1)))
        else $error("sm fpu: the lanes' divisions are not in step");
    end
  end
`endif

endmodule
