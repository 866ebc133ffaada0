// The FP unit: one simt_fpu per lane (docs/blocks/fpu.md) running the FP32 instructions the
// core starts from EXEC. start_i hands in an instruction with its executing lanes and
// operands (a: ra, b: rb or the immediate, c: rc for ffma: the register file's three read
// ports, read in DE), which the lanes take at the start; every lane computes, only
// executing lanes are written. The pipelined operations finish simt_fpu_pkg::Latency cycles
// after the start, fdiv and fsqrt DivSqrtLatency.
//
// Several instructions are in flight (issue #24, the result queue): the lanes take one
// pipelined operation per cycle and one division or square root alongside, so the unit keeps
// a tag per pipeline stage (warp, register, lanes; fsetp), one for the iterative unit, and a
// queue of Depth results that came back while the register file's write port was taken
// (rf_busy_i: another unit of the instruction in flight writes; a result waiting is
// wb_wait_o). Results are written oldest first: the queue's head, else a division's result
// arriving (started 27 cycles ago), else the pipeline's; the others enter the queue.
// At most Depth register results are in flight or held at once (pipeline, division, queue):
// so the queue never overflows, and an FP instruction in DE waits (the scoreboard gives it
// back) only when Depth are, or when it is an fdiv/fsqrt and the iterative unit is taken.
//
// A register-writing operation lets the core go on in the cycle after its start (done_o).
// The scoreboard (de_*) gives back an instruction of a warp that reads or writes a register
// some result of that warp in flight will write (RAW, WAW): so no two results for one
// register of one warp are ever in flight, and their order cannot change. fsetp writes a
// predicate, which every instruction of its warp reads as its guard: the core waits for it
// (done_o in the cycle it is written, the pipeline's last stage).
module simt_sm_fpu #(
  parameter int  NumWarps = 8,
  parameter int  Depth    = simt_fpu_pkg::Latency + 1,  // register results in flight or held
  localparam int WarpW    = (NumWarps > 1) ? $clog2(NumWarps) : 1,
  localparam int RfAW     = WarpW + 5,
  localparam int Lat      = simt_fpu_pkg::Latency,
  localparam int PtrW     = (Depth > 1) ? $clog2(Depth) : 1,
  localparam int CntW     = $clog2(Depth + Lat + 2)
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
  input  logic [32*7-1:0]        pred_i,   // the predicates of the warp in flight (fsetp's)
  output logic                   busy_o,   // an operation in flight or a result unwritten
  output logic                   done_o,   // the core may go on

  // Scoreboard: the instruction in DE (warp, registers it reads or writes, an FP opcode,
  // fdiv/fsqrt).
  input  logic [WarpW-1:0]       de_w_i,
  input  logic [31:0]            de_regs_i,
  input  logic                   de_fpu_i,
  input  logic                   de_ds_i,
  output logic                   de_hazard_o,
  output logic [NumWarps-1:0]    warps_o,  // warps with an operation in flight or unwritten
  output logic                   freed_o,  // a result is written: waiting warps try again

  output logic [31:0]            rf_we_o,
  output logic [RfAW-1:0]        rf_waddr_o,
  output logic [32*32-1:0]       rf_wdata_o,
  output logic                   rf_late_o,  // a result written after its instruction retired
  input  logic                   rf_busy_i,  // another unit of the core writes this cycle
  output logic                   wb_wait_o,  // a result waits for the write port
  output logic                   pred_we_o,
  output logic [32*7-1:0]        pred_wdata_o
);

  // ---- The lanes ---------------------------------------------------------------------------
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

  logic start_cmp, start_ds, start_pipe;
  assign start_cmp  = start_i && inst_i.op == simt_pkg::OpFSetp;
  assign start_ds   = start_i && (inst_i.op == simt_pkg::OpFDiv || inst_i.op == simt_pkg::OpFSqrt);
  assign start_pipe = start_i && !start_ds;

  // ---- Tags: one per pipeline stage (stage k: started k + 1 cycles ago), one division, one
  // per queue entry: what a result in flight is for.
  typedef struct packed {
    logic             v;    // in flight (a queue entry: held)
    logic             cmp;  // fsetp: a predicate, not a register
    logic [WarpW-1:0] w;    // the warp
    logic [4:0]       rd;   // its register (fsetp: its predicate)
    logic [31:0]      ex;   // the lanes written
  } tag_t;
  // Yosys 0.23 reads a member of an array element (p_q[k].v) as a new, undriven wire (it
  // warns "implicitly declared"): members are read and written on whole tag_t variables
  // only, an array element copied in or out as a whole.

  tag_t p_d [Lat];
  tag_t p_q [Lat];
  tag_t p_last;  // the pipeline's last stage
  always_comb begin
    p_d[0] = {start_pipe, start_cmp, warp_i, inst_i.rd, exec_i};  // the members in order
    for (int k = 1; k < Lat; k++) p_d[k] = p_q[k-1];
  end
  assign p_last = p_q[Lat-1];

  tag_t d_d, d_q;  // a division or square root in the iterative unit (cmp unused)

  // What comes back this cycle: the pipeline's last stage (a register result, or fsetp's
  // predicate), the iterative unit's result.
  logic arr_p, arr_cmp, arr_d;
  assign arr_p   = p_last.v && !p_last.cmp;
  assign arr_cmp = p_last.v && p_last.cmp;
  assign arr_d   = d_q.v && ds_valid[0];

  always_comb begin
    d_d   = d_q;
    d_d.v = d_q.v && !arr_d;
    if (start_ds) begin
      d_d.v  = 1'b1;
      d_d.w  = warp_i;
      d_d.rd = inst_i.rd;
      d_d.ex = exec_i;
    end
  end

  // ---- The result queue (a ring: head_q oldest, tail_q next free) -------------------------
  tag_t             q_d [Depth];  // cmp unused: fsetp's predicate is never held
  tag_t             q_q [Depth];
  logic [32*32-1:0] qdata_d [Depth];
  logic [32*32-1:0] qdata_q [Depth];
  logic [PtrW-1:0]  head_d, head_q, tail_d, tail_q, tail_1;

  function automatic logic [PtrW-1:0] ptr_next(logic [PtrW-1:0] p);
    ptr_next = (32'(p) == Depth - 1) ? '0 : p + PtrW'(1);
  endfunction
  assign tail_1 = ptr_next(tail_q);

  // The head (AND-OR over the entries: no dynamic index over the wide data).
  tag_t             head;
  logic             head_v;
  logic [32*32-1:0] head_data;
  always_comb begin
    head      = '0;
    head_data = '0;
    for (int i = 0; i < Depth; i++) begin
      if (head_q == PtrW'(i)) begin
        head      = head | q_q[i];
        head_data = head_data | qdata_q[i];
      end
    end
  end
  assign head_v = head.v;

  // The write: the oldest result there is, when the port is free. A division's result is
  // older than the pipeline's arriving with it; what is not written enters the queue (the
  // division's first).
  logic write, pop, push_d, push_p, wr_q, wr_d;
  assign write  = (head_v || arr_d || arr_p) && !rf_busy_i;
  assign wr_q   = write && head_v;
  assign wr_d   = write && !head_v && arr_d;
  assign pop    = wr_q;
  assign push_d = arr_d && !wr_d;
  assign push_p = arr_p && !(write && !head_v && !arr_d);
  assign wb_wait_o = (head_v || arr_d || arr_p) && rf_busy_i;
  assign freed_o   = write;

  logic [Depth-1:0] we_d, we_p;  // entry i takes the division's / the pipeline's result
  tag_t             q_old, q_new;  // entry i now and next (see tag_t)
  always_comb begin
    for (int i = 0; i < Depth; i++) begin
      we_d[i]    = push_d && tail_q == PtrW'(i);
      we_p[i]    = push_p && (push_d ? tail_1 : tail_q) == PtrW'(i);
      q_old      = q_q[i];
      q_new      = q_old;
      qdata_d[i] = qdata_q[i];
      if (we_d[i]) begin
        q_new      = d_q;
        qdata_d[i] = ds_result;
      end else if (we_p[i]) begin
        q_new      = p_last;
        qdata_d[i] = result;
      end
      q_new.v = (q_old.v && !(pop && head_q == PtrW'(i))) || we_d[i] || we_p[i];
      q_d[i]  = q_new;
    end
    head_d = pop ? ptr_next(head_q) : head_q;
    tail_d = tail_q;
    if (push_d && push_p) tail_d = ptr_next(tail_1);
    else if (push_d || push_p) tail_d = tail_1;
  end

  always_comb begin
    rf_we_o      = '0;
    rf_waddr_o   = {p_last.w, p_last.rd};
    rf_wdata_o   = '0;
    rf_late_o    = write;
    if (wr_q) begin
      rf_we_o    = head.ex;
      rf_waddr_o = {head.w, head.rd};
      rf_wdata_o = head_data;
    end else if (wr_d) begin
      rf_we_o    = d_q.ex;
      rf_waddr_o = {d_q.w, d_q.rd};
      rf_wdata_o = ds_result;
    end else if (write) begin
      rf_we_o    = p_last.ex;
      rf_wdata_o = result;
    end
  end

  // fsetp's predicate, as it comes (the core waits for it: the warp in flight is fsetp's,
  // and no other unit writes predicates).
  always_comb begin
    pred_we_o    = arr_cmp;
    pred_wdata_o = pred_i;
    if (arr_cmp) begin
      pred_wdata_o = simt_sm_pkg::pred_write(pred_i, p_last.ex, p_last.rd[2:0], pred);
    end
  end

  logic first_q;  // the cycle after a register-writing start
  assign done_o = first_q || arr_cmp;

  // ---- Occupancy, the warps in flight and the scoreboard -----------------------------------
  // Every tag in one view: pipeline stages, the division, the queue's entries.
  localparam int NumTags = Lat + 1 + Depth;
  logic [NumTags-1:0] tv, treg;  // in flight; a register result (not fsetp)
  logic [WarpW-1:0]   tw [NumTags];
  logic [4:0]         trd [NumTags];
  /* verilator lint_off UNUSEDSIGNAL */
  tag_t               tags [NumTags];  // (their lanes are not needed here)
  tag_t               tag;             // tags[t] (see tag_t)
  /* verilator lint_on UNUSEDSIGNAL */
  always_comb begin
    for (int k = 0; k < Lat; k++)   tags[k] = p_q[k];
    tags[Lat] = d_q;
    for (int i = 0; i < Depth; i++) tags[Lat+1+i] = q_q[i];
    for (int t = 0; t < NumTags; t++) begin
      tag     = tags[t];
      tv[t]   = tag.v;
      treg[t] = tag.v && !tag.cmp;
      tw[t]   = tag.w;
      trd[t]  = tag.rd;
    end
  end

  logic [CntW-1:0] regs_in_flight;
  logic            full, raw;
  always_comb begin
    regs_in_flight = '0;
    raw            = 1'b0;
    warps_o        = '0;
    for (int t = 0; t < NumTags; t++) begin
      regs_in_flight = regs_in_flight + CntW'(treg[t]);
      if (treg[t] && tw[t] == de_w_i && de_regs_i[trd[t]]) raw = 1'b1;
      for (int w = 0; w < NumWarps; w++) begin
        if (tv[t] && tw[t] == WarpW'(w)) warps_o[w] = 1'b1;
      end
    end
  end
  // DE's FP instruction starts one cycle later at the earliest (ffma too: DE reads its three
  // operands), and no other starts in between (one instruction past DE): the results in flight
  // now only leave by then.
  assign full        = 32'(regs_in_flight) >= Depth;
  assign de_hazard_o = raw || (de_fpu_i && (full || (de_ds_i && d_q.v)));
  assign busy_o      = tv != '0;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      for (int k = 0; k < Lat; k++) p_q[k] <= '0;
      d_q <= '0;
      for (int i = 0; i < Depth; i++) q_q[i] <= '0;
      head_q  <= '0;
      tail_q  <= '0;
      first_q <= 1'b0;
    end else begin
      for (int k = 0; k < Lat; k++) p_q[k] <= p_d[k];
      d_q <= d_d;
      for (int i = 0; i < Depth; i++) q_q[i] <= q_d[i];
      head_q  <= head_d;
      tail_q  <= tail_d;
      first_q <= start_i && !start_cmp;
    end
  end

  // The held results: wide, no reset (read only while valid).
  always_ff @(posedge clk_i) begin
    for (int i = 0; i < Depth; i++) qdata_q[i] <= qdata_d[i];
  end

`ifdef VERILATOR
  // Every register result is written exactly once: the results started and not yet written
  // are exactly the register tags in flight.
  logic [CntW-1:0] owed_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) owed_q <= '0;
    else         owed_q <= owed_q + CntW'(start_i && !start_cmp) - CntW'(write);
  end
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      assert (!$isunknown({start_i, busy_o, done_o, de_hazard_o, freed_o, write, wb_wait_o,
                           pred_we_o, warps_o, head_q, tail_q}))
        else $error("sm fpu: unknown control signals");
      if (start_i) assert (!$isunknown({inst_i.op, warp_i, exec_i}))
        else $error("sm fpu: unknown instruction at a start");
      assert (owed_q == regs_in_flight)
        else $error("sm fpu: %0d results owed, %0d in flight", owed_q, regs_in_flight);
      assert (!(start_i && !start_cmp && full))
        else $error("sm fpu: a start while %0d results are in flight (depth %0d)",
                    regs_in_flight, Depth);
      assert (!(start_ds && d_q.v))
        else $error("sm fpu: a division or square root while another is in flight");
      assert (!(start_ds && div_busy != '0))
        else $error("sm fpu: a division or square root while the iterative unit is busy");
      assert (!(write && rf_busy_i))
        else $error("sm fpu: a result written while the port is taken");
      for (int i = 0; i < Depth; i++) begin
        assert (!((we_d[i] || we_p[i]) && q_q[i].v))
          else $error("sm fpu: the result queue overflows at entry %0d", i);
      end
      assert ((we_d & we_p) == '0) else $error("sm fpu: two results into one queue entry");
      // One result per register of a warp in flight: the order of writes cannot change.
      for (int s = 0; s < NumTags; s++) begin
        for (int t = s + 1; t < NumTags; t++) begin
          assert (!(treg[s] && treg[t] && tw[s] == tw[t] && trd[s] == trd[t]))
            else $error("sm fpu: two results for warp %0d r%0d in flight", tw[s], trd[s]);
        end
      end
      assert (valid == {32{p_last.v}})
        else $error("sm fpu: the lanes' results are not in step with the tags");
      assert ((ds_valid == '0) || (ds_valid == '1 && d_q.v))
        else $error("sm fpu: the lanes' divisions are not in step with the tag");
    end
  end
`endif

endmodule
