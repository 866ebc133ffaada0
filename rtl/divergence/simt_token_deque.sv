// Double-ended token queue (seed 002): one queue of Depth tokens per warp, all in one RAM.
//
// Each warp's queue occupies entries [tail, head) of its Depth-entry region; head and tail
// start in the middle so the queue can grow at both ends. Front pushes write entry head and
// increment head; back pushes decrement tail and write entry tail. Pop front decrements head.
//
// The RAM has one synchronous read and one write port. Every push writes the RAM, so the RAM
// always holds the whole queue; front_q keeps a copy of each warp's front entry so peek and
// pop need no RAM read. A pop that leaves entries behind reads the new front from the RAM;
// in the next cycle the read data *is* the front (bypass) and is copied into front_q.
//
// Type summary (seed 002, bits 58..61 and the spare bits 62..63): a token pushed at the front
// stores its own type bit ORed with the summary of the token it covers, so the front token's
// summary says which types lie in the queue. A back push cannot update the tokens above it,
// so back-pushed types are also kept in back_sum_q (per warp, cleared when the queue
// empties). types_o = front summary | back_sum_q: exact without back pushes, and never
// missing a type that is present (it may name a back-pushed type that has left already).
//
// Overflow: a push past either end of the region is refused (push_ready_o low), the warp's
// queue stalls and an exception names warp and end. Nothing is lost: the requester still has
// the token and replays the push after the runtime has re-centred the entries through the
// maintenance port (stall, read, write, resume with new pointers).
module simt_token_deque #(
  parameter int NumWarps = simt_pkg::NumWarps,
  parameter int Depth    = simt_pkg::QueueDepth,
  parameter int TokenW   = 64,
  localparam int WarpW   = (NumWarps > 1) ? $clog2(NumWarps) : 1,
  localparam int IdxW    = $clog2(Depth),
  localparam int PtrW    = $clog2(Depth + 1),
  localparam int SumW    = simt_pkg::SumW
) (
  input  logic              clk_i,
  input  logic              rst_ni,

  // Push (front or back). The token's summary field is ignored and computed here.
  input  logic              push_valid_i,
  input  logic [WarpW-1:0]  push_warp_i,
  input  logic              push_back_i,
  input  logic [TokenW-1:0] push_token_i,
  output logic              push_ready_o,   // low: stalled, overflow, or front-push/pop clash
  // A front (back) push of fit_warp_i would be taken were no pop presented: from the
  // queue's state alone, not from push_back_i or the pop (a user deciding from them in the
  // cycle it pushes stays off the logic that chose those), and for a warp of its own (the
  // divergence unit asks for its request's warp while it pushes another's kept push).
  input  logic [WarpW-1:0]  fit_warp_i,
  output logic              push_front_ready_o,
  output logic              push_back_ready_o,

  // Pop front. pop_token_o is the token removed (the front of pop_warp_i).
  input  logic              pop_valid_i,
  input  logic [WarpW-1:0]  pop_warp_i,
  output logic              pop_ready_o,    // low: queue empty or stalled
  output logic [TokenW-1:0] pop_token_o,

  // Query (combinational peek).
  input  logic [WarpW-1:0]  qry_warp_i,
  output logic [TokenW-1:0] qry_front_o,
  output logic              qry_empty_o,
  output logic [PtrW-1:0]   qry_count_o,
  output logic [PtrW-1:0]   qry_head_o,
  output logic [PtrW-1:0]   qry_tail_o,
  output logic [SumW-1:0]   qry_types_o,    // token types present (see header)
  // A second count read (combinational), for a user whose warp differs from the query's.
  input  logic [WarpW-1:0]  cnt_warp_i,
  output logic [PtrW-1:0]   cnt_count_o,

  // Overflow exception: one-cycle pulse, the cycle after the refused push.
  output logic              exc_valid_o,
  output logic [WarpW-1:0]  exc_warp_o,
  output logic              exc_back_o,
  output logic [NumWarps-1:0] stalled_o,

  // Positional access to a running queue (the divergence unit's coverage scan and YIELD
  // merge): read or write the entry at position acc_pos_i from the front (0 = front).
  // Served in cycles without push or pop, for a queue that is not stalled; read data on
  // acc_rdata_o in the next cycle.
  input  logic              acc_valid_i,
  input  logic              acc_we_i,
  input  logic [WarpW-1:0]  acc_warp_i,
  input  logic [PtrW-1:0]   acc_pos_i,
  input  logic [TokenW-1:0] acc_wdata_i,
  output logic              acc_ready_o,
  output logic              acc_rvalid_o,
  output logic [TokenW-1:0] acc_rdata_o,

  // Maintenance port for the runtime; served in cycles without push, pop or access.
  input  logic              mnt_valid_i,
  input  simt_pkg::mnt_op_e mnt_op_i,
  input  logic [WarpW-1:0]  mnt_warp_i,
  input  logic [IdxW-1:0]   mnt_idx_i,
  input  logic [TokenW-1:0] mnt_wdata_i,
  input  logic [PtrW-1:0]   mnt_head_i,
  input  logic [PtrW-1:0]   mnt_tail_i,
  output logic              mnt_ready_o,
  output logic              mnt_rvalid_o,
  output logic [TokenW-1:0] mnt_rdata_o
);

  localparam int SumLsb = (TokenW == 128) ? simt_pkg::Tok128SumLsb : simt_pkg::Tok64SumLsb;
  localparam int TypeW  = (TokenW == 128) ? simt_pkg::Tok128TypeW : simt_pkg::Tok64TypeW;
  // The RAM's address {warp, index}, cast to its own width: one bit less than WarpW + IdxW
  // for one warp (WarpW is 1 there, the warp bit always 0).
  localparam int RamAW  = (NumWarps * Depth > 1) ? $clog2(NumWarps * Depth) : 1;
  function automatic logic [RamAW-1:0] ram_addr(logic [WarpW-1:0] warp,
                                               logic [IdxW-1:0] idx);
    ram_addr = RamAW'({warp, idx});
  endfunction
  localparam logic [PtrW-1:0] Middle = PtrW'(Depth / 2);
  localparam logic [PtrW-1:0] Full   = PtrW'(Depth);

  // ---------------------------------------------------------------------------------------
  // State
  // ---------------------------------------------------------------------------------------
  logic [PtrW-1:0]   head_d [NumWarps];
  logic [PtrW-1:0]   head_q [NumWarps];
  logic [PtrW-1:0]   tail_d [NumWarps];
  logic [PtrW-1:0]   tail_q [NumWarps];
  logic [SumW-1:0]   back_sum_d [NumWarps];
  logic [SumW-1:0]   back_sum_q [NumWarps];
  logic [TokenW-1:0] front_d [NumWarps];
  logic [TokenW-1:0] front_q [NumWarps];
  logic [NumWarps-1:0] stalled_d, stalled_q;
  logic              refill_d, refill_q;            // RAM read data is a warp's new front
  logic [WarpW-1:0]  refill_warp_d, refill_warp_q;
  logic              mnt_rvalid_d, mnt_rvalid_q;
  logic              acc_rvalid_d, acc_rvalid_q;
  logic              exc_valid_d, exc_valid_q;
  logic [WarpW-1:0]  exc_warp_d, exc_warp_q;
  logic              exc_back_d, exc_back_q;

  // RAM ports
  logic              ram_we, ram_re;
  logic [RamAW-1:0]  ram_waddr, ram_raddr;
  logic [TokenW-1:0] ram_wdata, ram_rdata;

  simt_ram_1r1w #(
    .Width (TokenW),
    .Depth (NumWarps * Depth)
  ) u_ram (
    .clk_i   (clk_i),
    .we_i    (ram_we),
    .waddr_i (ram_waddr),
    .wdata_i (ram_wdata),
    .re_i    (ram_re),
    .raddr_i (ram_raddr),
    .rdata_o (ram_rdata)
  );

  // ---------------------------------------------------------------------------------------
  // Helpers
  // ---------------------------------------------------------------------------------------
  function automatic logic [SumW-1:0] tok_summary(logic [TokenW-1:0] tok);
    /* verilator lint_off UNUSEDSIGNAL */
    logic [TokenW-1:0] t;
    /* verilator lint_on UNUSEDSIGNAL */
    t = tok;
    tok_summary = t[SumLsb +: SumW];
  endfunction

  function automatic logic [SumW-1:0] tok_type_bit(logic [TokenW-1:0] tok);
    /* verilator lint_off UNUSEDSIGNAL */
    logic [TokenW-1:0] t;
    /* verilator lint_on UNUSEDSIGNAL */
    logic [7:0]        ty;  // the type field zero-extended to 8 bits (no shift past a 4-bit one)
    t  = tok;
    ty = 8'(t[TypeW-1:0]);
    // Types above 15 (only possible in the 8-bit field) have no summary bit.
    if (ty[7:4] != '0) tok_type_bit = '0;
    else               tok_type_bit = simt_pkg::summary_bit(ty[3:0]);
  endfunction

  function automatic logic [TokenW-1:0] with_summary(logic [TokenW-1:0] tok,
                                                      logic [SumW-1:0] sum);
    logic [TokenW-1:0] t;
    t = tok;
    t[SumLsb +: SumW] = sum;
    with_summary = t;
  endfunction

  // The true front of every warp: the RAM read data while a refill is in flight.
  logic [TokenW-1:0] front_true [NumWarps];
  logic [PtrW-1:0]   count [NumWarps];
  always_comb begin
    for (int w = 0; w < NumWarps; w++) begin
      front_true[w] = (refill_q && refill_warp_q == WarpW'(w)) ? ram_rdata : front_q[w];
      count[w]      = head_q[w] - tail_q[w];
    end
  end

  // ---------------------------------------------------------------------------------------
  // Handshakes
  // ---------------------------------------------------------------------------------------
  logic push_front_fits, push_back_fits, push_fits, push_overflow, push_clash;
  logic do_push, do_pop, do_mnt, do_acc;
  logic [PtrW-1:0] push_count, pop_count;

  assign push_count    = count[push_warp_i];
  assign pop_count     = count[pop_warp_i];
  // A push of warp w fits at the front (back) end: not stalled, room at that end. Asked for
  // the push's warp (its handshake) and for fit_warp_i (the ready outputs).
  function automatic logic front_fits(logic [WarpW-1:0] w);
    front_fits = !stalled_q[w] && head_q[w] != Full;
  endfunction
  function automatic logic back_fits(logic [WarpW-1:0] w);
    back_fits = !stalled_q[w] && tail_q[w] != '0;
  endfunction
  // The push fits at its end (false while stalled); refused by a queue that is not stalled,
  // it overflows.
  assign push_front_fits = front_fits(push_warp_i);
  assign push_back_fits  = back_fits(push_warp_i);
  assign push_fits     = push_back_i ? push_back_fits : push_front_fits;
  assign push_overflow = !stalled_q[push_warp_i] && !push_fits;
  // A front push and a pop of the same warp in one cycle would need the summary of the token
  // under the popped one, which is still in the RAM: the push is refused for this cycle.
  assign push_clash    = pop_valid_i && (pop_warp_i == push_warp_i) && !push_back_i;
  assign push_ready_o  = push_fits && !push_clash;
  assign push_front_ready_o = front_fits(fit_warp_i);
  assign push_back_ready_o  = back_fits(fit_warp_i);
  assign pop_ready_o   = !stalled_q[pop_warp_i] && (pop_count != '0);
  assign pop_token_o   = front_true[pop_warp_i];
  assign acc_ready_o   = !push_valid_i && !pop_valid_i && !stalled_q[acc_warp_i];
  assign mnt_ready_o   = !push_valid_i && !pop_valid_i && !acc_valid_i;

  assign do_push = push_valid_i && push_ready_o;
  assign do_pop  = pop_valid_i && pop_ready_o;
  assign do_mnt  = mnt_valid_i && mnt_ready_o;
  assign do_acc  = acc_valid_i && acc_ready_o;

  // RAM index of the entry at position acc_pos_i from the front.
  logic [IdxW-1:0] acc_idx;
  assign acc_idx = IdxW'(head_q[acc_warp_i] - 1'b1 - acc_pos_i);

  // Token as written: summary = own type | summary of the token it covers (front push).
  logic [TokenW-1:0] push_token_sum;
  always_comb begin
    if (push_back_i || push_count == '0) begin
      push_token_sum = with_summary(push_token_i, tok_type_bit(push_token_i));
    end else begin
      push_token_sum = with_summary(push_token_i, tok_type_bit(push_token_i) |
                                    tok_summary(front_true[push_warp_i]));
    end
  end

  // ---------------------------------------------------------------------------------------
  // Next state
  // ---------------------------------------------------------------------------------------
  always_comb begin
    for (int w = 0; w < NumWarps; w++) begin
      head_d[w]     = head_q[w];
      tail_d[w]     = tail_q[w];
      back_sum_d[w] = back_sum_q[w];
      front_d[w]    = front_q[w];
    end
    stalled_d     = stalled_q;
    refill_d      = 1'b0;
    refill_warp_d = refill_warp_q;
    mnt_rvalid_d  = 1'b0;
    acc_rvalid_d  = 1'b0;
    exc_valid_d   = 1'b0;
    exc_warp_d    = exc_warp_q;
    exc_back_d    = exc_back_q;
    ram_we        = 1'b0;
    ram_waddr     = '0;
    ram_wdata     = push_token_sum;
    ram_re        = 1'b0;
    ram_raddr     = '0;

    // Last cycle's read data becomes the cached front (a push below may override it).
    if (refill_q) front_d[refill_warp_q] = ram_rdata;

    if (do_pop) begin
      head_d[pop_warp_i] = head_q[pop_warp_i] - 1'b1;
      if (pop_count > PtrW'(1)) begin
        ram_re        = 1'b1;
        ram_raddr     = ram_addr(pop_warp_i, IdxW'(head_q[pop_warp_i] - PtrW'(2)));
        refill_d      = 1'b1;
        refill_warp_d = pop_warp_i;
      end else begin
        back_sum_d[pop_warp_i] = '0;  // the queue is empty now
      end
    end

    if (do_push) begin
      ram_we = 1'b1;
      if (push_back_i) begin
        tail_d[push_warp_i]     = tail_q[push_warp_i] - 1'b1;
        ram_waddr               = ram_addr(push_warp_i, IdxW'(tail_q[push_warp_i] - 1'b1));
        back_sum_d[push_warp_i] = back_sum_d[push_warp_i] | tok_type_bit(push_token_i);
        // Into an empty queue (possibly emptied by this cycle's pop) it is also the front.
        if (head_d[push_warp_i] == tail_q[push_warp_i]) begin
          front_d[push_warp_i] = push_token_sum;
        end
      end else begin
        head_d[push_warp_i]  = head_q[push_warp_i] + 1'b1;
        ram_waddr            = ram_addr(push_warp_i, IdxW'(head_q[push_warp_i]));
        front_d[push_warp_i] = push_token_sum;
      end
    end else if (push_valid_i && push_overflow) begin
      stalled_d[push_warp_i] = 1'b1;
      exc_valid_d            = 1'b1;
      exc_warp_d             = push_warp_i;
      exc_back_d             = push_back_i;
    end

    if (do_acc) begin
      if (acc_we_i) begin
        ram_we    = 1'b1;
        ram_waddr = ram_addr(acc_warp_i, acc_idx);
        ram_wdata = acc_wdata_i;
        if (acc_pos_i == '0) front_d[acc_warp_i] = acc_wdata_i;  // keep the front copy
      end else begin
        ram_re       = 1'b1;
        ram_raddr    = ram_addr(acc_warp_i, acc_idx);
        acc_rvalid_d = 1'b1;
      end
    end

    if (do_mnt) begin
      unique case (mnt_op_i)
        simt_pkg::MntStall: stalled_d[mnt_warp_i] = 1'b1;
        simt_pkg::MntRead: begin
          ram_re       = 1'b1;
          ram_raddr    = ram_addr(mnt_warp_i, mnt_idx_i);
          mnt_rvalid_d = 1'b1;
        end
        simt_pkg::MntWrite: begin
          ram_we    = 1'b1;
          ram_waddr = ram_addr(mnt_warp_i, mnt_idx_i);
          ram_wdata = mnt_wdata_i;
        end
        simt_pkg::MntResume: begin
          head_d[mnt_warp_i]    = mnt_head_i;
          tail_d[mnt_warp_i]    = mnt_tail_i;
          stalled_d[mnt_warp_i] = 1'b0;
          if (mnt_head_i == mnt_tail_i) begin
            back_sum_d[mnt_warp_i] = '0;
          end else begin
            ram_re        = 1'b1;
            ram_raddr     = ram_addr(mnt_warp_i, IdxW'(mnt_head_i - 1'b1));
            refill_d      = 1'b1;
            refill_warp_d = mnt_warp_i;
          end
        end
        default: ;
      endcase
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      for (int w = 0; w < NumWarps; w++) begin
        head_q[w]     <= Middle;
        tail_q[w]     <= Middle;
        back_sum_q[w] <= '0;
      end
      stalled_q     <= '0;
      refill_q      <= 1'b0;
      refill_warp_q <= '0;
      mnt_rvalid_q  <= 1'b0;
      acc_rvalid_q  <= 1'b0;
      exc_valid_q   <= 1'b0;
      exc_warp_q    <= '0;
      exc_back_q    <= 1'b0;
    end else begin
      for (int w = 0; w < NumWarps; w++) begin
        head_q[w]     <= head_d[w];
        tail_q[w]     <= tail_d[w];
        back_sum_q[w] <= back_sum_d[w];
      end
      stalled_q     <= stalled_d;
      refill_q      <= refill_d;
      refill_warp_q <= refill_warp_d;
      mnt_rvalid_q  <= mnt_rvalid_d;
      acc_rvalid_q  <= acc_rvalid_d;
      exc_valid_q   <= exc_valid_d;
      exc_warp_q    <= exc_warp_d;
      exc_back_q    <= exc_back_d;
    end
  end

  // Front copies carry no reset: they are meaningful only while the queue is non-empty.
  always_ff @(posedge clk_i) begin
    for (int w = 0; w < NumWarps; w++) front_q[w] <= front_d[w];
  end

  // ---------------------------------------------------------------------------------------
  // Outputs
  // ---------------------------------------------------------------------------------------
  assign qry_front_o  = front_true[qry_warp_i];
  assign qry_count_o  = count[qry_warp_i];
  assign cnt_count_o  = count[cnt_warp_i];
  assign qry_empty_o  = (count[qry_warp_i] == '0);
  assign qry_head_o   = head_q[qry_warp_i];
  assign qry_tail_o   = tail_q[qry_warp_i];
  assign qry_types_o  = (qry_empty_o ? '0 : tok_summary(front_true[qry_warp_i])) |
                        back_sum_q[qry_warp_i];
  assign exc_valid_o  = exc_valid_q;
  assign exc_warp_o   = exc_warp_q;
  assign exc_back_o   = exc_back_q;
  assign stalled_o    = stalled_q;
  assign mnt_rvalid_o = mnt_rvalid_q;
  assign mnt_rdata_o  = ram_rdata;
  assign acc_rvalid_o = acc_rvalid_q;
  assign acc_rdata_o  = ram_rdata;

  // ---------------------------------------------------------------------------------------
  // Assertions
  // ---------------------------------------------------------------------------------------
`ifdef VERILATOR
  initial begin
    assert (Depth >= 2 && (Depth & (Depth - 1)) == 0) else $error("Depth must be 2^k >= 2");
    assert (TokenW == 64 || TokenW == 128) else $error("TokenW must be 64 or 128");
  end

  // Requesters name existing warps (NumWarps need not be a power of two).
  if (NumWarps != (1 << WarpW)) begin : g_warp_range_check
    always_ff @(posedge clk_i) begin
      if (rst_ni) begin
        assert (!push_valid_i || push_warp_i < WarpW'(NumWarps)) else $error("bad push warp");
        assert (fit_warp_i < WarpW'(NumWarps)) else $error("bad fit warp");
        assert (!pop_valid_i || pop_warp_i < WarpW'(NumWarps)) else $error("bad pop warp");
        assert (!mnt_valid_i || mnt_warp_i < WarpW'(NumWarps)) else $error("bad mnt warp");
        assert (!acc_valid_i || acc_warp_i < WarpW'(NumWarps)) else $error("bad acc warp");
      end
    end
  end

  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      for (int w = 0; w < NumWarps; w++) begin
        assert (tail_q[w] <= head_q[w] && head_q[w] <= Full)
          else $error("token_deque: warp %0d pointers out of order", w);
      end
      if (do_mnt && (mnt_op_i == simt_pkg::MntRead || mnt_op_i == simt_pkg::MntWrite)) begin
        assert (stalled_q[mnt_warp_i])
          else $error("token_deque: maintenance access to running warp %0d", mnt_warp_i);
      end
      if (do_mnt && mnt_op_i == simt_pkg::MntResume) begin
        assert (mnt_tail_i <= mnt_head_i && mnt_head_i <= Full)
          else $error("token_deque: resume with bad pointers");
      end
      if (push_valid_i && stalled_q[push_warp_i]) begin
        assert (!push_ready_o) else $error("token_deque: push accepted by stalled queue");
      end
      if (refill_q) begin
        assert (count[refill_warp_q] != '0) else $error("token_deque: refill of empty queue");
      end
      if (do_acc) begin
        assert (acc_pos_i < count[acc_warp_i])
          else $error("token_deque: access beyond the queue of warp %0d", acc_warp_i);
      end
    end
  end
`endif

`ifdef FORMAL
  // The runtime only resumes with ordered pointers inside the region, and every requester
  // names an existing warp (NumWarps need not be a power of two).
  always_comb begin
    if (rst_ni && do_mnt && mnt_op_i == simt_pkg::MntResume) begin
      assume (mnt_tail_i <= mnt_head_i && mnt_head_i <= Full);
    end
  end
  if (NumWarps != (1 << WarpW)) begin : g_warp_range_assume
    always_comb begin
      if (rst_ni) begin
        assume (push_warp_i < WarpW'(NumWarps));
        assume (fit_warp_i < WarpW'(NumWarps));
        assume (pop_warp_i < WarpW'(NumWarps));
        assume (qry_warp_i < WarpW'(NumWarps));
        assume (cnt_warp_i < WarpW'(NumWarps));
        assume (mnt_warp_i < WarpW'(NumWarps));
        assume (acc_warp_i < WarpW'(NumWarps));
      end
    end
  end

  always @(posedge clk_i) begin
    if (rst_ni) begin
      for (int w = 0; w < NumWarps; w++) begin
        assert (tail_q[w] <= head_q[w]);
        assert (head_q[w] <= Full);
        if (head_q[w] == tail_q[w]) assert (back_sum_q[w] == '0);
      end
      if (refill_q) assert (head_q[refill_warp_q] != tail_q[refill_warp_q]);
      if (exc_valid_q) assert (stalled_q[exc_warp_q]);
    end
  end
`endif

endmodule
