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
// Passes (issue #26): with NumLanes L < 32 lanes an FP instruction visits its groups of L
// threads with an executing thread in EXEC, one a cycle, as an ALU instruction does: each
// pass is a start (start_i, exec_i its group's threads, the operands the group's, pass_i the
// group, last_i on the last) and gives its own result, written on its group's threads. A
// division or square root starts its first group at once and keeps the others' operands in a
// small RAM (a group each, NumLanes x 64 bits) to start each as the one before comes back,
// so an fdiv of a full warp at L = 8 takes 4 x 27 cycles in the iterative units while the
// core goes on. Depth grows by a result per extra pass (Latency + 32 / L): an instruction in
// DE waits until its every pass has room.
//
// A register-writing operation lets the core go on in the cycle after its (last) start
// (done_o).
// The scoreboard (de_*) gives back an instruction of a warp that reads or writes a register
// some result of that warp in flight will write (RAW, WAW): so no two results for one
// register of one warp are ever in flight, and their order cannot change. fsetp writes a
// predicate, which every instruction of its warp reads as its guard: the core waits for it
// (done_o in the cycle its last pass's is written, the pipeline's last stage; each pass
// writes its group's bits as it comes).
module simt_sm_fpu #(
  parameter int  NumWarps = 8,
  parameter int  NumLanes = 32,
  localparam int NumPasses = 32 / NumLanes,
  localparam int PassW    = (NumPasses > 1) ? $clog2(NumPasses) : 1,
  // register results in flight or held (a result a pass)
  parameter int  Depth    = simt_fpu_pkg::Latency + NumPasses,
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
  input  logic [31:0]            exec_i,   // the pass's executing threads (one group's)
  input  logic [PassW-1:0]       pass_i,   // ... its group
  input  logic                   last_i,   // the instruction's last pass
  input  logic [WarpW-1:0]       warp_i,
  input  logic [NumLanes*32-1:0] opa_i,    // the group's operands, lane l: thread pass*L + l
  input  logic [NumLanes*32-1:0] opb_i,
  input  logic [NumLanes*32-1:0] opc_i,
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
  output logic [NumLanes*32-1:0] rf_wdata_o,  // on the lanes (rf_we_o: one group's threads)
  output logic                   rf_late_o,  // a result written after its instruction retired
  input  logic                   rf_busy_i,  // another unit of the core writes this cycle
  output logic                   wb_wait_o,  // a result waits for the write port
  output logic                   wb_want_o,  // a result is to be written (registered state)
  output logic                   pred_we_o,
  output logic [32*7-1:0]        pred_wdata_o
);

  // ---- The lanes ---------------------------------------------------------------------------
  // The pipeline (simt_fpu_pipe) and the iterative unit (simt_fpu_divsqrt) a lane, started
  // apart: a division's buffered group starts beside a pipelined operation.
  logic [NumLanes-1:0]    valid, ds_valid, div_busy, pred;
  logic [NumLanes*32-1:0] result, ds_result;
  logic                   start_cmp, start_ds, start_pipe;
  logic                   ds_go, ds_sqrt;         // an iterative start, fsqrt
  logic [NumLanes*32-1:0] ds_a, ds_b;             // ... its operands
  logic [NumLanes*64-1:0] ds_buf;                 // a buffered group's {b, a}
  logic                   ds_next;                // the next buffered group starts
  // The operands come straight from EXEC's latch (registers): gating them with start_i would
  // make the lanes' logic depend on the core's inputs, which simulation re-evaluates more often.
  for (genvar l = 0; l < NumLanes; l++) begin : g_lane
    logic [31:0] a, b, c;
    assign a = opa_i[l*32 +: 32];
    assign b = inst_i.imm_b ? inst_i.imm : opb_i[l*32 +: 32];
    assign c = opc_i[l*32 +: 32];
    assign ds_a[l*32 +: 32] = ds_next ? ds_buf[l*32 +: 32] : a;
    assign ds_b[l*32 +: 32] = ds_next ? ds_buf[NumLanes*32 + l*32 +: 32] : b;
    simt_fpu_pipe u_fpu (
      .clk_i    (clk_i),
      .rst_ni   (rst_ni),
      .valid_i  (start_pipe),
      .op_i     (inst_i.op[3:0]),
      .rm_i     (inst_i.sub[1:0]),
      .cmp_i    (inst_i.sub[3:0]),
      .a_i      (a),
      .b_i      (b),
      .c_i      (c),
      .valid_o  (valid[l]),
      .result_o (result[l*32 +: 32]),
      .pred_o   (pred[l])
    );
    simt_fpu_divsqrt u_divsqrt (
      .clk_i    (clk_i),
      .rst_ni   (rst_ni),
      .start_i  (ds_go),
      .sqrt_i   (ds_sqrt),
      .a_i      (ds_a[l*32 +: 32]),
      .b_i      (ds_b[l*32 +: 32]),
      .busy_o   (div_busy[l]),
      .valid_o  (ds_valid[l]),
      .result_o (ds_result[l*32 +: 32])
    );
  end

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
    logic [31:0]      ex;   // the threads written (one group's)
    logic             last; // the instruction's last pass (fsetp: the core goes on)
  } tag_t;
  // Tags are kept in flat vectors, TagW bits each: Yosys (0.23 and 0.70) reads an unpacked
  // array of tag_t as one packed vector (it synthesized the pipeline's results away: never
  // written). It also reads a member of an array element (p_q[k].v) as a new, undriven wire
  // (it warns "implicitly declared"): members are read and written on whole tag_t variables
  // only, an array element copied in or out as a whole.

  localparam int TagW = WarpW + 40;  // $bits(tag_t), which Yosys does not take (asserted)
  logic [Lat*TagW-1:0] p_d, p_q;  // stage k at [k*TagW +: TagW]
  tag_t                p_last;    // the pipeline's last stage
  always_comb begin
    p_d[0 +: TagW] = {start_pipe, start_cmp, warp_i, inst_i.rd, exec_i, last_i};  // in order
    for (int k = 1; k < Lat; k++) p_d[k*TagW +: TagW] = p_q[(k-1)*TagW +: TagW];
  end
  assign p_last = p_q[(Lat-1)*TagW +: TagW];

  // A division or square root in the iterative units (cmp, last unused), and the threads of
  // its groups still to start (L < 32: their operands wait in ds_buf; d_q stays valid until the
  // last group's result, so its warp and register stay on the scoreboard).
  tag_t        d_d, d_q;
  logic [31:0] pend_d, pend_q;
  logic        sqrt_d, sqrt_q;
  logic        ds_first;  // a division's first group: started at once
  assign ds_first = start_ds && !d_q.v;

  // What comes back this cycle: the pipeline's last stage (a register result, or fsetp's
  // predicate), the iterative unit's result.
  logic arr_p, arr_cmp, arr_d;
  assign arr_p   = p_last.v && !p_last.cmp;
  assign arr_cmp = p_last.v && p_last.cmp;
  assign arr_d   = d_q.v && ds_valid[0];

  assign ds_next = arr_d && pend_q != '0;
  assign ds_go   = ds_first || ds_next;
  assign ds_sqrt = ds_next ? sqrt_q : inst_i.op == simt_pkg::OpFSqrt;

  always_comb begin
    d_d    = d_q;
    pend_d = pend_q;
    sqrt_d = sqrt_q;
    d_d.v  = d_q.v && !(arr_d && pend_q == '0);
    if (ds_next) begin
      d_d.ex = pend_q & simt_sm_pkg::group_of(pend_q, NumLanes);
      pend_d = pend_q & ~d_d.ex;
    end
    if (ds_first) begin
      d_d.v  = 1'b1;
      d_d.w  = warp_i;
      d_d.rd = inst_i.rd;
      d_d.ex = exec_i;
      sqrt_d = inst_i.op == simt_pkg::OpFSqrt;
    end else if (start_ds) begin
      pend_d = pend_q | exec_i;  // a later pass of the division started
    end
  end

  if (NumPasses > 1) begin : g_ds_buf
    // A group's operands, written in its pass, read as the group before comes back.
    logic [PassW-1:0] rd_grp;
    assign rd_grp = PassW'(32'(simt_sm_pkg::group_first(pend_q, NumLanes)) >> $clog2(NumLanes));
    simt_ram_async #(.Width(NumLanes * 64), .Depth(NumPasses), .NumRd(1)) u_ds_buf (
      .clk_i   (clk_i),
      .rst_ni  (rst_ni),
      .we_i    (start_ds && d_q.v),
      .waddr_i (pass_i),
      .wdata_i ({ds_b, ds_a}),
      .raddr_i (rd_grp),
      .rdata_o (ds_buf)
    );
  end else begin : g_no_ds_buf
    assign ds_buf = '0;
    /* verilator lint_off UNUSEDSIGNAL */
    logic [PassW-1:0] unused_pass;
    /* verilator lint_on UNUSEDSIGNAL */
    assign unused_pass = pass_i;
  end

  // ---- The result queue (a ring: head_q oldest, tail_q next free) -------------------------
  logic [Depth*TagW-1:0] q_d, q_q;  // entry i at [i*TagW +: TagW]; cmp unused: fsetp's
                                    // predicate is never held
  logic [PtrW-1:0]  head_d, head_q, tail_d, tail_q, tail_1;

  function automatic logic [PtrW-1:0] ptr_next(logic [PtrW-1:0] p);
    ptr_next = (32'(p) == Depth - 1) ? '0 : p + PtrW'(1);
  endfunction
  assign tail_1 = ptr_next(tail_q);

  // The head's tag (AND-OR over the entries).
  tag_t             head;
  logic             head_v;
  logic [NumLanes*32-1:0] head_data;
  always_comb begin
    head = '0;
    for (int i = 0; i < Depth; i++) begin
      if (head_q == PtrW'(i)) head = head | q_q[i*TagW +: TagW];
    end
  end
  assign head_v = head.v;

  // A result is to be written: the port is the unit's this cycle unless another unit's write
  // comes first. What a load's response behind it waits for, from registered state only
  // (issue #26: the shared unit's write -> this unit's write -> the load/store unit's response
  // was the FP core's longest routed path); every result has a thread to write (asserted
  // below), so it says what the write would.
  assign wb_want_o = head_v || arr_d || arr_p;

  // The write: the oldest result there is, when the port is free. A division's result is
  // older than the pipeline's arriving with it; what is not written enters the queue (the
  // division's first).
  logic write, pop, push_d, push_p, wr_q, wr_d;
  assign write  = wb_want_o && !rf_busy_i;
  assign wr_q   = write && head_v;
  assign wr_d   = write && !head_v && arr_d;
  assign pop    = wr_q;
  assign push_d = arr_d && !wr_d;
  assign push_p = arr_p && !(write && !head_v && !arr_d);
  assign wb_wait_o = wb_want_o && rf_busy_i;
  assign freed_o   = write;

  logic [Depth-1:0] we_d, we_p;  // entry i takes the division's / the pipeline's result
  logic [PtrW-1:0]  waddr_p;       // the pipeline's entry (after the division's)
  tag_t             q_old, q_new;  // entry i now and next (see tag_t)
  assign waddr_p = push_d ? tail_1 : tail_q;
  always_comb begin
    for (int i = 0; i < Depth; i++) begin
      we_d[i]    = push_d && tail_q == PtrW'(i);
      we_p[i]    = push_p && waddr_p == PtrW'(i);
      q_old      = q_q[i*TagW +: TagW];
      q_new      = q_old;
      if (we_d[i])      q_new = d_q;
      else if (we_p[i]) q_new = p_last;
      q_new.v = (q_old.v && !(pop && head_q == PtrW'(i))) || we_d[i] || we_p[i];
      q_d[i*TagW +: TagW] = q_new;
    end
    head_d = pop ? ptr_next(head_q) : head_q;
    tail_d = tail_q;
    if (push_d && push_p) tail_d = ptr_next(tail_1);
    else if (push_d || push_p) tail_d = tail_1;
  end

  // The held results' data: LUT RAM, not flip-flops (issue #26: Depth x L x 32 bits with a
  // read multiplexer and two write multiplexers per bit were most of the unit). A cycle can
  // hold both a division's and a pipeline's result, so the data is two one-write RAMs, one
  // per source, and a bit per entry (a live-value table) says which holds the entry's.
  logic [NumLanes*32-1:0] qd_data, qp_data;
  logic [Depth-1:0]       from_d_d, from_d_q;  // entry i's result is in the division's RAM
  simt_ram_async #(.Width(NumLanes * 32), .Depth(Depth), .NumRd(1)) u_q_ds (
    .clk_i   (clk_i),
    .rst_ni  (rst_ni),
    .we_i    (push_d),
    .waddr_i (tail_q),
    .wdata_i (ds_result),
    .raddr_i (head_q),
    .rdata_o (qd_data)
  );
  simt_ram_async #(.Width(NumLanes * 32), .Depth(Depth), .NumRd(1)) u_q_pipe (
    .clk_i   (clk_i),
    .rst_ni  (rst_ni),
    .we_i    (push_p),
    .waddr_i (waddr_p),
    .wdata_i (result),
    .raddr_i (head_q),
    .rdata_o (qp_data)
  );
  assign from_d_d  = (from_d_q & ~we_p) | we_d;
  assign head_data = from_d_q[head_q] ? qd_data : qp_data;

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

  // fsetp's predicate, a pass's as it comes (the core waits for it: the warp in flight is
  // fsetp's, and no other unit writes predicates; pred_i holds the passes written before).
  // Lane l's bit goes to thread g*L + l of every group g; ex picks the pass's.
  logic [31:0] pred_threads;
  for (genvar t = 0; t < 32; t++) begin : g_pred
    assign pred_threads[t] = pred[t % NumLanes];
  end
  always_comb begin
    pred_we_o    = arr_cmp;
    pred_wdata_o = pred_i;
    if (arr_cmp) begin
      pred_wdata_o = simt_sm_pkg::pred_write(pred_i, p_last.ex, p_last.rd[2:0], pred_threads);
    end
  end

  logic first_q;  // the cycle after a register-writing instruction's last start
  assign done_o = first_q || (arr_cmp && p_last.last);

  // ---- Occupancy, the warps in flight and the scoreboard -----------------------------------
  // Every tag in one view: pipeline stages, the division, the queue's entries.
  localparam int NumTags = Lat + 1 + Depth;
  logic [NumTags-1:0] tv, treg;  // in flight; a register result (not fsetp)
  logic [WarpW-1:0]   tw [NumTags];
  logic [4:0]         trd [NumTags];
  logic [31:0]        tex [NumTags];   // (for the assertions)
  /* verilator lint_off UNUSEDSIGNAL */
  logic [NumTags*TagW-1:0] tags;     // tag t at [t*TagW +: TagW]
  tag_t               tag;             // tag t (see tag_t)
  /* verilator lint_on UNUSEDSIGNAL */
  always_comb begin
    tags = {q_q, d_q, p_q};
    for (int t = 0; t < NumTags; t++) begin
      tag     = tags[t*TagW +: TagW];
      tv[t]   = tag.v;
      treg[t] = tag.v && !tag.cmp;
      tw[t]   = tag.w;
      trd[t]  = tag.rd;
      tex[t]  = tag.ex;
    end
  end

  // The division's groups still to start are results owed too.
  logic [CntW-1:0] pend_groups;
  always_comb begin
    pend_groups = '0;
    for (int g = 0; g < NumPasses; g++) begin
      pend_groups = pend_groups + CntW'(pend_q[g*NumLanes +: NumLanes] != '0);
    end
  end

  logic [CntW-1:0] regs_in_flight;
  logic            full, raw;
  always_comb begin
    regs_in_flight = pend_groups;
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
  // now only leave by then. It starts up to NumPasses results.
  assign full        = 32'(regs_in_flight) + NumPasses > Depth;
  assign de_hazard_o = raw || (de_fpu_i && (full || (de_ds_i && d_q.v)));
  assign busy_o      = tv != '0;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      p_q <= '0;
      d_q <= '0;
      pend_q <= '0;
      sqrt_q <= 1'b0;
      q_q <= '0;
      from_d_q <= '0;
      head_q  <= '0;
      tail_q  <= '0;
      first_q <= 1'b0;
    end else begin
      p_q <= p_d;
      d_q <= d_d;
      pend_q <= pend_d;
      sqrt_q <= sqrt_d;
      q_q <= q_d;
      from_d_q <= from_d_d;
      head_q  <= head_d;
      tail_q  <= tail_d;
      first_q <= start_i && !start_cmp && last_i;
    end
  end

`ifdef VERILATOR
  initial assert ($bits(tag_t) == TagW) else $fatal(1, "sm fpu: TagW is not tag_t's width");
  // Every register result is written exactly once: the results started and not yet written
  // are exactly the register tags in flight.
  logic [CntW-1:0] owed_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) owed_q <= '0;
    else         owed_q <= owed_q + CntW'(start_i && !start_cmp) - CntW'(write);  // a pass each
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
      assert (!(start_i && !start_cmp && 32'(regs_in_flight) >= Depth))
        else $error("sm fpu: a start while %0d results are in flight (depth %0d)",
                    regs_in_flight, Depth);
      // A start's threads are one group's, its pass's.
      if (start_i) assert (simt_sm_pkg::later_groups(exec_i, NumLanes) == '0 &&
                           (NumPasses == 1 ||
                            32'(simt_sm_pkg::group_first(exec_i, NumLanes)) ==
                            32'(pass_i) * NumLanes))
        else $error("sm fpu: a start's threads %h are not group %0d's", exec_i, pass_i);
      // A division's later pass joins the division in flight: the same instruction, in the
      // passes right after its first (no group of it has come back yet).
      if (start_ds && d_q.v) assert (NumPasses > 1 && d_q.w == warp_i && d_q.rd == inst_i.rd &&
                                     !arr_d && ((pend_q | d_q.ex) & exec_i) == '0)
        else $error("sm fpu: a division or square root while another is in flight");
      assert (!(ds_go && div_busy != '0))
        else $error("sm fpu: a division or square root while the iterative unit is busy");
      assert (!(ds_next && start_ds))
        else $error("sm fpu: a buffered group starts beside a division's pass");
      assert (!(write && rf_busy_i))
        else $error("sm fpu: a result written while the port is taken");
      for (int i = 0; i < Depth; i++) begin
        assert (!((we_d[i] || we_p[i]) && tv[Lat+1+i]))
          else $error("sm fpu: the result queue overflows at entry %0d", i);
      end
      assert ((we_d & we_p) == '0) else $error("sm fpu: two results into one queue entry");
      // One result per register of a warp's thread in flight (one instruction's passes: one
      // a group): the order of writes cannot change.
      for (int s = 0; s < NumTags; s++) begin
        for (int t = s + 1; t < NumTags; t++) begin
          assert (!(treg[s] && treg[t] && tw[s] == tw[t] && trd[s] == trd[t] &&
                    (tex[s] & tex[t]) != '0))
            else $error("sm fpu: two results for warp %0d r%0d in flight", tw[s], trd[s]);
        end
      end
      assert (valid == {NumLanes{p_last.v}})
        else $error("sm fpu: the lanes' results are not in step with the tags");
      assert ((ds_valid == '0) || (ds_valid == '1 && d_q.v))
        else $error("sm fpu: the lanes' divisions are not in step with the tag");
      assert (!write || rf_we_o != '0)
        else $error("sm fpu: a result with no thread to write");
      assert (pend_q == '0 || (d_q.v && NumPasses > 1 && (pend_q & d_q.ex) == '0))
        else $error("sm fpu: division groups pending without their division");
    end
  end
`endif

endmodule
